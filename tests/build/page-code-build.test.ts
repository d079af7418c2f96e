// A change to pages' code alone (a component used by one page): the next build renders again the pages of the routes
// whose code changed, writes every other page as the last build wrote it (src/build/page-reuse.ts), and its output is
// what a build from scratch writes, byte for byte. In tests/build: it builds a site four times.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { LANGUAGE_CODES, languagePrefix } from '../../src/i18n/languages.ts';
import { builtOutput, differingFiles } from '../support/built-output.ts';
import { PREPARED_BUILD } from '../support/prepared-build.ts';
import { build, copyProject } from '../support/site.ts';

/** A component of the cities page alone (src/pages/[...lang]/cities.astro). */
const COMPONENT = 'src/components/CitySubmissionForm.astro';
/** A component of the article page (src/pages/[...lang]/articles/[slug].astro). */
const THREAD_COMPONENT = 'src/components/CommentThread.astro';
const MARK = 'data-changed-between-builds';

test("a change to a page's component renders that page alone again, and writes what a full build writes", async () => {
  const dir = await copyProject('page-code-build');
  const first = await build(dir, PREPARED_BUILD);
  assert.equal(first.code, 0, first.output);
  const before = await builtOutput(dir);

  const file = join(dir, COMPONENT);
  const source = await readFile(file, 'utf8');
  assert.match(source, /<form\b/);
  await writeFile(file, source.replace(/<form\b/, `<form ${MARK}`));
  const second = await build(dir, PREPARED_BUILD);
  assert.equal(second.code, 0, second.output);
  const rendered = /Only pages' code changed: (\d+) pages and files rendered again, (\d+) written as the last build wrote them; .*/.exec(
    second.output,
  );
  assert.ok(rendered, second.output);
  const citiesPages = LANGUAGE_CODES.map((lang) => `dist/client${languagePrefix(lang)}/cities/index.html`);
  // The cities page in every language, and the two content files, which the build moves out of the served ones.
  assert.equal(Number(rendered[1]), citiesPages.length + 2, rendered[0]);
  assert.ok(Number(rendered[2]) > 200, rendered[0]);
  assert.match(rendered[0], /the search index kept\. Modules changed: src\/components\/CitySubmissionForm\.astro\b/);
  const reusedBuild = await builtOutput(dir);
  // The cities page in every language changed (and its encodings and manifest lines); nothing else built did.
  const changed = differingFiles(before, reusedBuild).filter((name) => !name.startsWith('manifest '));
  assert.deepEqual(changed, citiesPages.flatMap((page) => [page, `${page}.br`, `${page}.gz`]).sort());
  for (const page of citiesPages) assert.match(await readFile(join(dir, page), 'utf8'), new RegExp(MARK));

  // A component of the article page: its pages are rendered again, and the search index made again from them all.
  const thread = join(dir, THREAD_COMPONENT);
  await writeFile(thread, (await readFile(thread, 'utf8')).replace(/<section\b/, `<section ${MARK}`));
  const third = await build(dir, PREPARED_BUILD);
  assert.equal(third.code, 0, third.output);
  const articlePages = [...before.keys()].filter((name) => /^dist\/client\/(?:[a-z]{2,3}\/)?articles\/[^/]+\/index\.html$/.test(name));
  assert.match(
    third.output,
    new RegExp(
      `Only pages' code changed: ${articlePages.length + 2} pages and files rendered again, \\d+ written .*; the search index made\\.`,
    ),
  );
  const threadBuild = await builtOutput(dir);

  const full = await build(dir, PREPARED_BUILD, ['--full']);
  assert.equal(full.code, 0, full.output);
  assert.doesNotMatch(full.output, /Only pages' code changed/);
  assert.deepEqual(differingFiles(threadBuild, await builtOutput(dir)), [], 'files that differ between the reusing build and a full one');
});
