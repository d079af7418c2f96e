// The Playwright runner's server (playwright.config.ts): the prepared site copied into BROWSER_SITE_DIR, then its
// `npm start` run there in this process's place, so that the runner stops the server it started. Its npm start sees
// the prepared build's settings, the server its own (prepared-build.ts).
import { SERVED_SETTINGS_PRELOAD } from './prepared-build.ts';
import { copyPreparedSiteTo } from './site.ts';

const dir = process.env['BROWSER_SITE_DIR'];
if (dir === undefined) throw new Error('BROWSER_SITE_DIR is not set: playwright.config.ts sets it for its server');
await copyPreparedSiteTo(dir);
process.chdir(dir);
if (!process.execve) throw new Error("process.execve is missing: the tests run on Linux, under the project's Node");
process.execve(process.execPath, [process.execPath, '--import', SERVED_SETTINGS_PRELOAD, 'scripts/start.ts'], process.env);
