import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { request } from '../support/http.ts';
import { addFiles, build, copyProject, startSite } from '../support/site.ts';

const ARTICLE = `---
title: "A writer's new article"
date: 2021-06-01
excerpt: "Added by dropping one file in content/."
---

## What happened

The writer added one file and rebuilt.
`;

/** A publication's own name, given as its home page's title. */
const RENAMED = 'The River Notes';

/** What an agent is told the publication is called: the MCP server's card, its initialization, and the AI catalog. */
async function assertNamedAgents(url: string): Promise<void> {
  const card = (await request(`${url}/mcp/server-card`)).json<{ name: string; title: string }>();
  assert.equal(card.title, RENAMED);
  assert.match(card.name, /\/longhand$/, 'named for the software');
  const initialized = await request(`${url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  assert.equal(initialized.status, 200, initialized.text);
  const data = /^data: (.*)$/m.exec(initialized.text)?.[1] ?? initialized.text;
  const { result } = JSON.parse(data) as { result: { serverInfo: { title: string }; instructions: string } };
  assert.equal(result.serverInfo.title, RENAMED);
  assert.ok(result.instructions.startsWith(`${RENAMED} (`), result.instructions);
  const catalog = (await request(`${url}/.well-known/ai-catalog.json`)).json<{ host: { displayName: string } }>();
  assert.equal(catalog.host.displayName, RENAMED);
}

describe('a writer adds files to content/ and rebuilds', () => {
  test('npm start builds a copy without dist/, and builds again after a new article is added', async () => {
    const dir = await copyProject('new-article');
    const first = await startSite(dir);
    try {
      assert.match(first.output(), /Building the site first/);
      assert.equal((await request(`${first.url}/articles/a-new-article`)).status, 404);
      // The build ran apart, and the server is a fresh image of the same process, running the build's JavaScript
      // (scripts/serve.mjs, no TypeScript) with its memory settings.
      const commandLine = (await readFile(`/proc/${first.pid}/cmdline`, 'utf8')).split('\0');
      assert.ok(commandLine.includes('--max-semi-space-size=8'), commandLine.join(' '));
      assert.ok(commandLine.includes('--heap-growing-percent=60'), commandLine.join(' '));
      assert.ok(commandLine.at(-2)?.endsWith('scripts/serve.mjs'), commandLine.join(' '));
      const environment = (await readFile(`/proc/${first.pid}/environ`, 'utf8')).split('\0');
      assert.ok(environment.includes('MALLOC_ARENA_MAX=2') && environment.includes('MALLOC_TRIM_THRESHOLD_=131072'));
    } finally {
      await first.stop();
    }
    const home = (await readFile('content/pages/home/en.md', 'utf8')).replace(/^title: ".*"$/m, `title: "${RENAMED}"`);
    await addFiles(dir, {
      'content/articles/a-new-article/en.md': ARTICLE,
      'content/pages/home/en.md': home,
      'dist/client/left-by-hand.txt': 'not built',
    });
    const distBefore = (await stat(join(dir, 'dist'))).ino;
    const site = await startSite(dir);
    try {
      assert.match(site.output(), /Building the site first/, 'a source newer than the build triggers a build');
      // The last build's files were set aside and removed; dist/ is the same folder, which a running server watches.
      assert.equal((await stat(join(dir, 'dist'))).ino, distBefore);
      assert.equal(await stat(join(dir, 'dist', 'client', 'left-by-hand.txt')).catch(() => undefined), undefined);
      assert.equal(await stat(join(dir, '.cache', 'last-builds')).catch(() => undefined), undefined, 'nothing is left aside');
      const list = (await request(`${site.url}/api/articles?lang=de`)).json<{ articles: { slug: string; lang: string }[] }>();
      assert.equal(list.articles.find((item) => item.slug === 'a-new-article')?.lang, 'en');
      const page = await request(`${site.url}/articles/a-new-article`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>A writer(&#39;|')s new article<\/h1>/);
      assert.match(page.text, /<p>The writer added one file and rebuilt\.<\/p>/, 'the body, from the content store the prerendering read');
      for (const file of await readdir(join(dir, 'dist', 'server'), { recursive: true }))
        assert.doesNotMatch(
          await readFile(join(dir, 'dist', 'server', file), 'utf8').catch(() => ''),
          /The writer added one file/,
          `the server bundle holds no article (${file})`,
        );
      const twin = await request(`${site.url}/articles/a-new-article.md`);
      assert.equal(twin.status, 200);
      assert.match(twin.text, /^# A writer's new article\n/);
      assert.match(twin.text, /The writer added one file and rebuilt\./);
      await assertNamedAgents(site.url);
    } finally {
      await site.stop();
    }
    const third = await startSite(dir);
    try {
      assert.doesNotMatch(third.output(), /Building the site first/, 'an up-to-date build is served as it is');
    } finally {
      await third.stop();
    }
    const moved = await startSite(dir, { SITE_URL: 'https://longhand.example' });
    try {
      assert.match(moved.output(), /Building the site first/, 'a build-time setting that changed triggers a build');
      assert.match(
        (await request(`${moved.url}/articles/a-new-article`)).text,
        /<link rel="canonical" href="https:\/\/longhand\.example\/articles\/a-new-article">/,
      );
    } finally {
      await moved.stop();
    }
  });

  const broken: Record<string, { files: Record<string, string>; says: RegExp }> = {
    'a missing title': {
      files: { 'content/articles/broken/en.md': '---\ndate: 2021-01-01\nexcerpt: "x"\n---\nBody\n' },
      says: /content\/articles\/broken\/en\.md[\s\S]*title/,
    },
    'a date that is not a calendar date': {
      files: { 'content/articles/broken/en.md': '---\ntitle: "T"\ndate: "June 1st"\nexcerpt: "x"\n---\nBody\n' },
      says: /content\/articles\/broken\/en\.md[\s\S]*date/,
    },
    'an unknown front matter field': {
      files: {
        'content/articles/broken/fr.md': '---\ntitle: "T"\ndate: 2021-01-01\nexcerpt: "x"\nauthor: "me"\n---\nBody\n',
        'content/articles/broken/en.md': ARTICLE,
      },
      says: /content\/articles\/broken\/fr\.md[\s\S]*author/,
    },
    'a folder name that is not a slug': {
      files: { 'content/articles/Bad_Name/en.md': ARTICLE },
      says: /content\/articles\/Bad_Name\/en\.md/,
    },
    'a file name that is not a language': {
      files: { 'content/articles/fine-name/english.md': ARTICLE },
      says: /content\/articles\/fine-name\/english\.md/,
    },
    'an image beside a Markdown article': {
      files: { 'content/articles/pictured/en.md': ARTICLE.replace('## What happened', '![A figure](./figure.png)\n\n## What happened') },
      says: /content\/articles\/pictured\/en\.md names an image beside it \(\.\/figure\.png\): images go in public\/images\//,
    },
    'a translation without its English original': {
      files: { 'content/articles/orphan/de.md': ARTICLE },
      says: /content\/articles\/orphan.*English/,
    },
  };
  for (const [what, { files, says }] of Object.entries(broken)) {
    test(`${what} fails the build, naming the file`, async () => {
      const dir = await copyProject('broken-content');
      await addFiles(dir, files);
      const { code, output } = await build(dir);
      assert.notEqual(code, 0);
      assert.match(output, says);
    });
  }
});
