import { chromium, expect, test, type Browser } from '@playwright/test';
import lighthouse from 'lighthouse';
import { BROWSER_ARGS, CHROMIUM_PATH, WEBMCP_ARGS } from '../../playwright.config.ts';
import { freePort } from '../support/ports.ts';

/**
 * Lighthouse's Agentic Browsing category on the system Chromium, with
 * WebMCP on: every audit passes on these pages, and none is "not
 * applicable" (each page has forms, every form is a tool, the site has an
 * llms.txt and an AI catalog).
 */
const PAGES = ['/', '/articles/the-price-of-a-beer', '/answers', '/cities'];

let browser: Browser;
let port: number;
test.beforeAll(async () => {
  port = await freePort();
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...BROWSER_ARGS, ...WEBMCP_ARGS, `--remote-debugging-port=${String(port)}`],
  });
});
test.afterAll(async () => {
  await browser.close();
});

for (const path of PAGES) {
  test(`Agentic Browsing: every audit passes on ${path}`, async ({ baseURL }) => {
    // A Lighthouse run loads the page several times and traces it: far longer than a page test.
    test.setTimeout(180_000);
    const result = await lighthouse(`${baseURL ?? ''}${path}`, {
      port,
      onlyCategories: ['agentic-browsing'],
      output: 'json',
      logLevel: 'error',
    });
    const category = result?.lhr.categories['agentic-browsing'];
    expect(category).toBeDefined();
    const audits = (category?.auditRefs ?? []).map(({ id }) => {
      const { score, scoreDisplayMode, explanation } = result?.lhr.audits[id] ?? {};
      return { id, score, scoreDisplayMode, explanation };
    });
    expect(audits).toHaveLength(7);
    for (const audit of audits) {
      expect(audit.scoreDisplayMode, audit.id).not.toBe('notApplicable');
      expect(audit.scoreDisplayMode, audit.id).not.toBe('error');
      expect(audit.score ?? 0, JSON.stringify(audit)).toBeGreaterThanOrEqual(0.9);
    }
  });
}
