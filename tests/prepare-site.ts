// Builds, once per test run, the site that the HTTP and browser tests serve.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { addFiles, build, copyProject } from './support/site.ts';
import { dispatchWithFailingOperation, FAILING_OPERATION, FIXTURE_ARTICLES } from './support/fixtures.ts';

const dir = await copyProject('site');
const ENTRY = 'src/server/entry/serve.ts';
await addFiles(dir, {
  ...FIXTURE_ARTICLES,
  ...FAILING_OPERATION,
  [ENTRY]: dispatchWithFailingOperation(await readFile(join(dir, ENTRY), 'utf8')),
});
const { code, output } = await build(dir);
if (code !== 0) {
  console.error(output);
  process.exit(1);
}
console.log(`Prepared the test site in ${dir}`);
