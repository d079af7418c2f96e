// Names that say where things are (docs/architecture.md, "The layers"): a file name under src/server names one module.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { test } from 'node:test';

const SERVER = join(import.meta.dirname, '..', '..', 'src', 'server');
/** An engine's folder holds one file per store role, named by the role, as the other engine's are. */
const ENGINE_FOLDERS = ['store/embedded', 'store/postgres'];

test('no two modules under src/server share a file name, the store engines’ folders aside', async () => {
  const files = (await readdir(SERVER, { recursive: true }))
    .filter((path) => path.endsWith('.ts'))
    .filter((path) => !ENGINE_FOLDERS.some((folder) => relative(folder, path).split('/')[0] !== '..'));
  assert.ok(files.length > 100, `${files.length} modules read`);
  const byName = new Map<string, string[]>();
  for (const path of files) byName.set(basename(path), [...(byName.get(basename(path)) ?? []), path]);
  assert.deepEqual(
    [...byName.values()].filter((paths) => paths.length > 1),
    [],
  );
});
