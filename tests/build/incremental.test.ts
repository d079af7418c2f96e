// A build after one changed article renders that article's pages alone and copies the rest from the last build
// (Astro's incremental build, docs/architecture.md), and writes what a cold build of the same tree writes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import { addFiles, build, copyProject } from '../support/site.ts';

const GENERATED = 12;
const LANGUAGES = ['en', 'fr', 'ar'] as const;
const CHANGED = 'generated-5';
/** Astro draws a new key for its server bundle at every build unless ASTRO_KEY names one: two cold builds differ in it. */
const KEYED = { ASTRO_KEY: 'MsELR9JB75KgWKDeiEw/yHHZ4E01oB1JaaL/xgirLmE=' };

function generated(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let number = 1; number <= GENERATED; number += 1) {
    const day = `2025-01-${String(number).padStart(2, '0')}`;
    for (const lang of LANGUAGES)
      files[`content/articles/generated-${number}/${lang}.md`] =
        `---\ntitle: "Generated ${number} (${lang})"\ndate: ${day}\nexcerpt: "Article ${number}, in ${lang}."\n---\n\nText ${number}.\n`;
  }
  return files;
}

/** The article pages and twins a build's log says it rendered, not copied from the cache. */
function renderedArticles(output: string): string[] {
  return stripVTControlCharacters(output)
    .split('\n')
    .filter((line) => /\/articles\/\S+/.test(line) && !/\((restored|cached)\)/.test(line))
    .map((line) => /(\/\S*articles\/\S+)/.exec(line)?.[1] ?? line)
    .sort();
}

/**
 * Every file under `dist/` by its bytes' hash; the file manifest without its
 * modification times, which say when a file was written, not what it holds.
 */
async function builtTree(dir: string): Promise<Record<string, string>> {
  const root = join(dir, 'dist');
  const tree: Record<string, string> = {};
  for (const file of (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile())) {
    const path = join(file.parentPath, file.name);
    let body = await readFile(path);
    if (file.name === 'static-files.json')
      body = Buffer.from(JSON.stringify(JSON.parse(body.toString(), (key, value: unknown) => (key === 'mtimeMs' ? 0 : value))));
    tree[path.slice(root.length + 1)] = createHash('sha256').update(body).digest('hex');
  }
  return tree;
}

test('a build after one changed article renders its pages only, and matches a cold build byte for byte', async () => {
  const dir = await copyProject('incremental');
  await addFiles(dir, generated());
  const cold = await build(dir, KEYED);
  assert.equal(cold.code, 0, cold.output);

  await addFiles(dir, {
    [`content/articles/${CHANGED}/en.md`]: `---\ntitle: "Generated 5, changed"\ndate: 2025-01-05\nexcerpt: "Article 5, changed."\n---\n\nText 5, changed.\n`,
  });
  const incremental = await build(dir, KEYED);
  assert.equal(incremental.code, 0, incremental.output);
  assert.deepEqual(renderedArticles(incremental.output), [`/articles/${CHANGED}.md`, `/articles/${CHANGED}/index.html`]);
  const afterIncremental = await builtTree(dir);

  await rm(join(dir, 'dist'), { recursive: true, force: true });
  await rm(join(dir, '.cache'), { recursive: true, force: true });
  const again = await build(dir, KEYED);
  assert.equal(again.code, 0, again.output);
  assert.deepEqual(afterIncremental, await builtTree(dir));
});
