// Builds, once per test run, the site that the HTTP and browser tests serve.
import { addFiles, build, copyProject } from './support/site.ts';
import { FAILING_ROUTE, FIXTURE_ARTICLES } from './support/fixtures.ts';

const dir = await copyProject('site');
await addFiles(dir, { ...FIXTURE_ARTICLES, ...FAILING_ROUTE });
const { code, output } = await build(dir);
if (code !== 0) {
  console.error(output);
  process.exit(1);
}
console.log(`Prepared the test site in ${dir}`);
