import { chromium, expect, test, type Browser } from '@playwright/test';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { BROWSER_ARGS, CHROMIUM_PATH } from '../../playwright.config.ts';
import { freePort } from '../support/ports.ts';

/**
 * Lighthouse's four categories on an article page whose thread holds
 * comments in Markdown (quotes, code, lists, links, a reply), in light and
 * dark mode: accessibility, best practices and SEO score 100. Performance is
 * Lighthouse's simulated mobile load, whose blocking time is this machine's
 * own CPU time multiplied: it is printed, and held to a guard only.
 */
const ARTICLE = '/he/articles/writing-in-plain-text';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const EXACT = ['accessibility', 'best-practices', 'seo'];
/** Far below the 100 the site scores on a quiet machine; a page that grew a render-blocking script or a heavy image falls under it. */
const PERFORMANCE_GUARD = 0.9;
/** Audits no page can pass in a test's browser: Playwright's Chromium runs with the back/forward cache off. */
const NOT_THE_PAGES = new Set(['bf-cache']);
const BODIES = [
  'A **Markdown** comment with `code`, ~~struck~~ and *emphasis*, and [a link](https://example.org/lighthouse)',
  '> A quote with https://example.org/bare\n\n- one\n- two\n\n```\nconst plain = "text";\n```',
];

// One worker runs both modes, on one thread written once.
test.describe.configure({ mode: 'serial' });

let browser: Browser;
let port: number;

test.beforeAll(async ({ request, baseURL }) => {
  // The thread: a comment in Markdown, a reply to it, and another comment, sent as the site's own form sends them.
  const origin = baseURL ?? '';
  const send = async (body: string, parentId: string | null, reader: number): Promise<string> => {
    const answer = await request.post(`${origin}/api/comments`, {
      headers: { Origin: origin, 'X-Forwarded-For': `198.18.7.${String(reader)}` },
      data: { articleSlug: 'writing-in-plain-text', body, parentId },
    });
    expect(answer.status(), await answer.text()).toBe(200);
    return ((await answer.json()) as { id: string }).id;
  };
  const [first = '', second = ''] = BODIES.map((body) => `${body} (${String(Date.now())})`);
  await send(second, await send(first, null, 1), 2);
  await send(`${second}\n\n1. a list in order`, null, 3);
  port = await freePort();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BROWSER_ARGS, `--remote-debugging-port=${String(port)}`] });
});
test.afterAll(async () => {
  await browser.close();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`Lighthouse on an article whose thread holds Markdown, ${scheme} mode: 100 but for performance's guard`, async ({ baseURL }) => {
    // A Lighthouse run loads the page several times and traces it: far longer than a page test.
    test.setTimeout(180_000);
    // Lighthouse runs in a tab of ours, which prefers the colour scheme asked for.
    const driver = await puppeteer.connect({ browserURL: `http://127.0.0.1:${String(port)}` });
    const tab = await driver.newPage();
    try {
      await tab.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      const result = await lighthouse(
        `${baseURL ?? ''}${ARTICLE}`,
        { onlyCategories: CATEGORIES, output: 'json', logLevel: 'error' },
        undefined,
        tab,
      );
      expect(await tab.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), 'the scheme the page was seen in').toBe(
        scheme === 'dark',
      );
      const lhr = result?.lhr;
      expect(lhr?.runtimeError, JSON.stringify(lhr?.runtimeError)).toBeUndefined();
      const missed = Object.values(lhr?.audits ?? {})
        .filter(
          ({ id, score, scoreDisplayMode }) => ['binary', 'numeric'].includes(scoreDisplayMode) && score !== 1 && !NOT_THE_PAGES.has(id),
        )
        .map(({ id, score, displayValue }) => `${id} ${String(score)} ${displayValue ?? ''}`);
      const scores = CATEGORIES.map((category) => `${category} ${String(Math.round((lhr?.categories[category]?.score ?? 0) * 100))}`);
      console.log(`Lighthouse, ${scheme}: ${scores.join(', ')}${missed.length > 0 ? `; below 1: ${missed.join('; ')}` : ''}`);
      for (const category of EXACT) expect(lhr?.categories[category]?.score, `${category}: ${missed.join('; ')}`).toBe(1);
      expect(lhr?.categories['performance']?.score ?? 0, missed.join('; ')).toBeGreaterThanOrEqual(PERFORMANCE_GUARD);
    } finally {
      await tab.close();
      await driver.disconnect();
    }
  });
}
