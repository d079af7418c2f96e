// Builds, once per test run, the site that the HTTP and browser tests serve.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PREPARED_BUILD } from './support/prepared-build.ts';
import { addFiles, build, copyProject } from './support/site.ts';
import { dispatchWithFailingOperation, FAILING_OPERATION, FIXTURE_ARTICLES, FIXTURE_LIST_SIZES, withSizes } from './support/fixtures.ts';

const dir = await copyProject('site');
const ENTRY = 'src/server/entry/serve.ts';
const lowered = await Promise.all(
  Object.entries(FIXTURE_LIST_SIZES).map(
    async ([path, sizes]) => [path, withSizes(await readFile(join(dir, path), 'utf8'), sizes)] as const,
  ),
);
await addFiles(dir, {
  ...FIXTURE_ARTICLES,
  ...FAILING_OPERATION,
  ...Object.fromEntries(lowered),
  [ENTRY]: dispatchWithFailingOperation(await readFile(join(dir, ENTRY), 'utf8')),
});
const { code, output } = await build(dir, PREPARED_BUILD);
if (code !== 0) {
  console.error(output);
  process.exit(1);
}
console.log(`Prepared the test site in ${dir}`);
