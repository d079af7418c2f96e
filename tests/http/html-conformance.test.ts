import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LANGUAGE_CODES, languagePrefix } from '../../src/i18n/languages.ts';
import { answersPath, archivePath, homePath, NEWSLETTER_PATHS } from '../../src/server/http/site-paths.ts';
import { request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress, post } from '../support/writes.ts';

const VNU_JAR = fileURLToPath(new URL('../../node_modules/vnu-jar/build/dist/vnu.jar', import.meta.url));
/**
 * WebMCP's declarative attributes on forms and their fields (a W3C Community
 * Group draft the checker does not know yet): only the message that they are
 * not allowed is set aside, every other error on those elements still counts.
 */
const WEBMCP_ATTRIBUTES =
  '.*Attribute “(toolname|tooldescription|toolparamdescription)” not allowed on element “(form|input|textarea|select)” at this point\\..*';

/**
 * The server as a site that follows runs: its pages rendered on demand carry
 * the follow line and the subscribe form, as the built ones do
 * (tests/support/prepared-build.ts). Nobody subscribes, so no email is sent.
 */
const FOLLOWING = { FEDERATION: 'on', NEWSLETTER: 'on', SMTP_URL: 'smtp://127.0.0.1:9', NEWSLETTER_FROM: 'news@example.test' };

let site: RunningSite;
let scratch: string;
before(async () => {
  site = await startSite(PREPARED_SITE, FOLLOWING);
  scratch = await mkdtemp(join(tmpdir(), 'html-conformance-'));
});
after(async () => {
  await site.stop();
  await rm(scratch, { recursive: true, force: true });
});

/** Every page the build wrote (Pagefind's own files aside). */
async function builtPages(): Promise<string[]> {
  const client = join(PREPARED_SITE, 'dist', 'client');
  const entries = await readdir(client, { recursive: true });
  return entries.filter((entry) => entry.endsWith('.html') && !entry.startsWith('pagefind')).map((entry) => join(client, entry));
}

/** Every page of every language's archive, found by following each page's link to the next. */
async function archivePaths(): Promise<string[]> {
  const paths: string[] = [];
  for (const lang of LANGUAGE_CODES) {
    let path: string | undefined = archivePath(lang);
    while (path !== undefined) {
      paths.push(path);
      const next: string | undefined = /<link rel="next" href="([^"]+)">/.exec((await request(`${site.url}${path}`)).text)?.[1];
      path = next === undefined ? undefined : new URL(next).pathname;
    }
  }
  return paths;
}

/** A comment in every construct comments render, and raw HTML, which they show as text. */
const COMMENT =
  '<p>Markup & more</p>\nOn two lines\n\n> **quoted** `code` [a link](https://example.org/x)\n\n- one\n- two\n\n```\na code block\n```\n\n# a heading';

/** An article with a comment and a reply to it, whose pages the server sends with their thread in them. */
async function articleWithThread(): Promise<string> {
  const articleSlug = 'the-price-of-a-beer';
  const comment = await post(site.url, '/api/comments', { articleSlug, body: COMMENT }, newReaderAddress());
  assert.equal(comment.status, 200, comment.text);
  const parentId = String(comment.json()['id']);
  assert.equal(
    (
      await post(
        site.url,
        '/api/comments',
        { articleSlug, parentId, body: 'A ~~reply~~ *too*: https://example.org/reply' },
        newReaderAddress(),
      )
    ).status,
    200,
  );
  return articleSlug;
}

/** The pages rendered on demand, and the article pages with their thread, as the server sends them, saved to be checked as files. */
async function onDemandPages(): Promise<string[]> {
  const article = await articleWithThread();
  const paths = [
    ...LANGUAGE_CODES.flatMap((lang) => [
      homePath(lang),
      answersPath(lang),
      `${languagePrefix(lang)}/no-such-page`,
      `${languagePrefix(lang)}/articles/${article}`,
      `${NEWSLETTER_PATHS.asked}?lang=${lang}`,
    ]),
    ...(await archivePaths()),
  ];
  return Promise.all(
    paths.map(async (path, index) => {
      const file = join(scratch, `page-${index}.html`);
      await writeFile(file, (await request(`${site.url}${path}`)).text);
      return file;
    }),
  );
}

test('every page, built or rendered on demand, in every language, passes the Nu Html Checker without an error', async () => {
  const pages = [...(await builtPages()), ...(await onDemandPages())];
  assert.ok(pages.length > 100, `only ${pages.length} pages found`);
  // The checker exits non-zero when it finds an error; its report is the failure's message.
  const report = await new Promise<string>((resolve) => {
    execFile(
      'java',
      ['-jar', VNU_JAR, '--errors-only', '--filterpattern', WEBMCP_ATTRIBUTES, '--format', 'text', ...pages],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve(`${stdout}${stderr}${error && !stderr ? error.message : ''}`);
      },
    );
  });
  assert.match(report, /Document checking completed\. No errors found\./, report);
});
