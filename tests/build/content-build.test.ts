// A writer's change to articles' Markdown and images only: the next build renders the pages of the changed articles
// alone and copies the images (src/build/content-build.ts), and writes what a full build of the same tree writes, byte
// for byte. In tests/build: it builds a site three times.
import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { searchPartOf } from '../../src/build/search-index.ts';
import { request } from '../support/http.ts';
import { seededRandom } from '../support/random.ts';
import { builtOutput, differingFiles } from '../support/built-output.ts';
import { PREPARED_BUILD } from '../support/prepared-build.ts';
import { addFiles, build, copyProject, startSite } from '../support/site.ts';

const CHANGED = 'writing-in-plain-text';
const SHORTENED = 'the-price-of-a-beer';
const ADDED = 'added-between-builds';
/**
 * Articles generated in the changed article's part of the search index: Pagefind's index of a part depends on the
 * order it is handed the pages in once a language holds a hundred or so, which a content-only build must hand over as
 * a full build does.
 */
const GENERATED = 150;
const CHANGED_IMAGE = 'images/writing-in-plain-text.svg';
const ADDED_IMAGE = 'images/added-between-builds.svg';
const REMOVED_IMAGE = 'images/the-price-of-a-beer.svg';

const article = (title: string, body: string): string =>
  `---\ntitle: "${title}"\ndate: 2021-06-01\nexcerpt: "Added between two builds."\n---\n\n${body}\n`;

/** `count` English articles of made-up words in the search part of `slug`, by path. */
function generatedArticles(slug: string, count: number): Record<string, string> {
  const random = seededRandom(2026);
  const below = (count: number) => Math.floor(random() * count);
  const word = () => Array.from({ length: 3 + below(7) }, () => String.fromCharCode(97 + below(26))).join('');
  const files: Record<string, string> = {};
  for (let index = 0; Object.keys(files).length < count; index++) {
    const generated = `generated-${index}`;
    if (searchPartOf(generated) !== searchPartOf(slug)) continue;
    const body = Array.from({ length: 20 }, () => `${Array.from({ length: 12 }, word).join(' ')}.`).join(' ');
    files[`content/articles/${generated}/en.md`] = article(`Generated ${index} ${word()}`, body);
  }
  return files;
}

const svg = (colour: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 9"><rect width="16" height="9" fill="${colour}"/></svg>\n`;

async function languagesOf(dir: string, slug: string): Promise<number> {
  return (await readdir(join(dir, 'content/articles', slug))).filter((file) => file.endsWith('.md')).length;
}

test('a content-only build renders the changed articles alone, copies the changed images, and writes what a full build writes', async () => {
  const dir = await copyProject('content-build');
  await addFiles(dir, generatedArticles(CHANGED, GENERATED));
  // Built with the settings a test server's npm start checks the build against (prepared-build.ts).
  const first = await build(dir, PREPARED_BUILD);
  assert.equal(first.code, 0, first.output);
  assert.doesNotMatch(first.output, /content-only/, 'a first build is a full one');

  const changedFile = join(dir, 'content/articles', CHANGED, 'en.md');
  await addFiles(dir, {
    [`content/articles/${CHANGED}/en.md`]: `${await readFile(changedFile, 'utf8')}\nA sentence added between two builds.\n`,
    [`content/articles/${ADDED}/en.md`]: article('Added between builds', 'Written after the first build.'),
    [`content/articles/${ADDED}/fr.md`]: article('Ajouté entre deux constructions', 'Écrit après la première construction.'),
    [`public/${CHANGED_IMAGE}`]: svg('#336699'),
    [`public/${ADDED_IMAGE}`]: svg('#993366'),
  });
  await rm(join(dir, 'content/articles', SHORTENED, 'de.md'));
  await rm(join(dir, 'public', REMOVED_IMAGE));
  const second = await build(dir, PREPARED_BUILD);
  assert.equal(second.code, 0, second.output);
  // Each article's page and twin in each of its languages, the removed translation's two files deleted: nothing else.
  const rendered = 2 * ((await languagesOf(dir, CHANGED)) + 2 + (await languagesOf(dir, SHORTENED)));
  assert.match(
    second.output,
    new RegExp(
      `A content-only build: ${rendered} pages and twins rendered again, 2 removed, of 3 changed article\\(s\\) \\(${ADDED}, ${SHORTENED}, ${CHANGED}\\); 3 file\\(s\\) of public/ copied or removed`,
    ),
  );

  const site = await startSite(dir);
  try {
    assert.doesNotMatch(site.output(), /Building the site first/, 'the content-only build is current');
    const added = await request(`${site.url}/fr/articles/${ADDED}`);
    assert.equal(added.status, 200);
    assert.match(added.text, /Écrit après la première construction\./);
    assert.match((await request(`${site.url}/articles/${CHANGED}.md`)).text, /A sentence added between two builds\./);
    assert.match((await request(`${site.url}/${CHANGED_IMAGE}`)).text, /#336699/);
    assert.equal((await request(`${site.url}/${ADDED_IMAGE}`)).status, 200);
    assert.equal((await request(`${site.url}/${REMOVED_IMAGE}`)).status, 404);
    const parts = (await request(`${site.url}/pagefind/parts.json`)).json<string[]>();
    assert.ok(parts.length > 1, 'the search index is in parts');
    for (const part of parts) assert.equal((await request(`${site.url}${part}pagefind-entry.json`)).status, 200, part);
  } finally {
    await site.stop();
  }

  const contentOnly = await builtOutput(dir);
  const full = await build(dir, PREPARED_BUILD, ['--full']);
  assert.equal(full.code, 0, full.output);
  assert.doesNotMatch(full.output, /content-only/);
  const fromScratch = await builtOutput(dir);
  assert.deepEqual(differingFiles(contentOnly, fromScratch), [], 'files that differ between the content-only build and a full one');
  assert.ok(
    fromScratch.has(`dist/client/fr/articles/${ADDED}/index.html`) && !fromScratch.has(`dist/client/de/articles/${SHORTENED}/index.html`),
  );
});
