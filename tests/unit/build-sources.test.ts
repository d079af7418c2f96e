import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildSources, changedSlugs } from '../../src/build/build-sources.ts';
import { addFiles } from '../support/site.ts';

test('a build records its articles apart from its code: only Markdown articles may be built by their content', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'build-sources-'));
  try {
    await addFiles(dir, {
      'src/page.ts': 'export {};\n',
      'content/pages/home/en.md': 'Home\n',
      'content/articles/first/en.md': 'One\n',
      'content/articles/first/fr.md': 'Un\n',
      'content/articles/first/figure.png': 'image',
      'content/articles/first.v2/en.md': 'An old version\n',
      'content/articles/second/en.mdx': 'MDX\n',
    });
    const before = await buildSources(dir, 'settings', '2026-11-29');
    assert.deepEqual(Object.keys(before.articles).sort(), ['first/en.md', 'first/fr.md']);

    await addFiles(dir, { 'content/articles/first/fr.md': 'Un et deux\n', 'content/articles/third/en.md': 'Three\n' });
    const articlesChanged = await buildSources(dir, 'settings', '2026-11-29');
    assert.equal(articlesChanged.code, before.code, 'a Markdown article is not code');
    assert.deepEqual([...changedSlugs(before, articlesChanged)].sort(), ['first', 'third']);

    for (const [what, files] of Object.entries({
      'an image beside an article': { 'content/articles/first/figure.png': 'another image' },
      'an MDX article': { 'content/articles/second/en.mdx': 'Other MDX\n' },
      'an old version': { 'content/articles/first.v2/en.md': 'Another old version\n' },
      'a content page': { 'content/pages/home/en.md': 'Another home\n' },
      'the code': { 'src/page.ts': 'export const x = 1;\n' },
    })) {
      const before = await buildSources(dir, 'settings', '2026-11-29');
      await addFiles(dir, files);
      assert.notEqual((await buildSources(dir, 'settings', '2026-11-29')).code, before.code, what);
    }
    const now = await buildSources(dir, 'settings', '2026-11-29');
    assert.notEqual((await buildSources(dir, 'other settings', '2026-11-29')).code, now.code, 'the build settings');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
