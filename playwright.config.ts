import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { startEnvironment } from './tests/support/prepared-build.ts';

// The system Chromium (Debian's `chromium`); Playwright never downloads a browser here.
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
// Keep Chromium's own calls home off the network; loopback bypasses the proxy.
export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--proxy-server=http://127.0.0.1:9',
];
/** Chromium's WebMCP (`document.modelContext`, declarative form tools) and its DevTools domain, which Lighthouse reads: still behind a flag. */
export const WEBMCP_ARGS = ['--enable-features=WebMCPTesting,DevToolsWebMCPSupport'];
const PORT = Number(process.env['BROWSER_TEST_PORT'] ?? 4327);
// The server's store, made once by the runner; its workers inherit the variable, so tests can check what was stored.
process.env['BROWSER_DATA_DIR'] ??= mkdtempSync(join(tmpdir(), 'longhand-browser-'));
/**
 * The site the runner's server serves: a copy of the prepared one, since
 * its SITE_URL (this address) is a build setting and its npm start builds
 * the copy again for it. The prepared site stays as `test:prepare` built
 * it, for the tests that start it themselves while this server runs.
 */
process.env['BROWSER_SITE_DIR'] ??= mkdtempSync(join(tmpdir(), 'longhand-browser-site-'));
/**
 * The specs that run Lighthouse: its performance score is this machine's
 * CPU time multiplied, so they run last, one at a time, with no other test
 * beside them (`--no-deps` runs them alone).
 */
const LIGHTHOUSE_SPECS = ['**/lighthouse.spec.ts', '**/federated-article.spec.ts'];

export default defineConfig({
  testDir: 'tests/browser',
  fullyParallel: true,
  workers: 2,
  reporter: process.env['CI'] ? 'line' : 'list',
  timeout: 30_000,
  projects: [
    { name: 'pages', testIgnore: LIGHTHOUSE_SPECS },
    { name: 'lighthouse', testMatch: LIGHTHOUSE_SPECS, dependencies: ['pages'], workers: 1 },
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...BROWSER_ARGS],
    },
  },
  webServer: {
    // Copies the prepared site into BROWSER_SITE_DIR and runs its npm start there (tests/support/browser-site.ts).
    command: 'node tests/support/browser-site.ts',
    url: `http://127.0.0.1:${PORT}/`,
    // The browser's Origin is this address, and each run starts with an empty store.
    env: {
      ...(startEnvironment({}) as Record<string, string>),
      PORT: String(PORT),
      HOST: '127.0.0.1',
      SITE_URL: `http://127.0.0.1:${PORT}`,
      DATA_DIR: process.env['BROWSER_DATA_DIR'],
      // A test that uses up a quota comes as a reader of its own (X-Forwarded-For); the others stay the loopback reader.
      TRUST_PROXY: '1',
      // Tests fill and send a form at once, as no person does: the rule is tested on a site of its own (spam-defence.spec.ts).
      FORM_MIN_SECONDS: '0',
    },
    reuseExistingServer: false,
    // Building the copy for this address comes first: about a minute on a busy 2-core machine.
    timeout: 180_000,
  },
});
