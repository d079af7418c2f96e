import { chromium, expect, test, type Browser } from '@playwright/test';
import lighthouse from 'lighthouse';
import { BROWSER_ARGS, CHROMIUM_PATH } from '../../playwright.config.ts';
import { freePort } from '../support/ports.ts';

/**
 * Lighthouse's four categories (performance, accessibility, best practices,
 * SEO) on an article page whose thread holds comments in Markdown (quotes,
 * code, lists, links, a reply), in light and dark mode: each scores 100.
 * Performance is Lighthouse's simulated mobile load, computed from the trace
 * rather than timed, so a busy machine moves it little.
 */
const ARTICLE = '/he/articles/writing-in-plain-text';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const BODIES = [
  'A **Markdown** comment with `code`, ~~struck~~ and *emphasis*, and [a link](https://example.org/lighthouse)',
  '> A quote with https://example.org/bare\n\n- one\n- two\n\n```\nconst plain = "text";\n```',
];

let browsers: Browser[] = [];
const ports = new Map<string, number>();

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
  const [first = '', second = ''] = BODIES;
  await send(second, await send(first, null, 1), 2);
  await send(`${second}\n\n1. a list in order`, null, 3);
  for (const scheme of ['light', 'dark']) {
    const port = await freePort();
    ports.set(scheme, port);
    const dark = scheme === 'dark' ? ['--force-dark-mode', '--blink-settings=preferredColorScheme=0'] : [];
    browsers.push(
      await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BROWSER_ARGS, ...dark, `--remote-debugging-port=${String(port)}`] }),
    );
  }
});
test.afterAll(async () => {
  await Promise.all(browsers.map((browser) => browser.close()));
  browsers = [];
});

for (const scheme of ['light', 'dark']) {
  test(`Lighthouse: 100 in every category on an article whose thread holds Markdown, ${scheme} mode`, async ({ baseURL }) => {
    // A Lighthouse run loads the page several times and traces it: far longer than a page test.
    test.setTimeout(180_000);
    const result = await lighthouse(`${baseURL ?? ''}${ARTICLE}`, {
      port: ports.get(scheme) ?? 0,
      onlyCategories: CATEGORIES,
      output: 'json',
      logLevel: 'error',
    });
    const [page] = await Promise.all([browsers[scheme === 'dark' ? 1 : 0]?.newPage()]);
    await page?.goto(`${baseURL ?? ''}${ARTICLE}`);
    expect(await page?.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), 'the colour scheme asked for').toBe(
      scheme === 'dark',
    );
    await page?.close();
    const lhr = result?.lhr;
    expect(lhr?.runtimeError, JSON.stringify(lhr?.runtimeError)).toBeUndefined();
    const failing = Object.values(lhr?.audits ?? {})
      .filter(({ score, scoreDisplayMode }) => scoreDisplayMode === 'binary' && score !== 1)
      .map(({ id, title }) => `${id}: ${title}`);
    for (const category of CATEGORIES)
      expect(lhr?.categories[category]?.score, `${category}; audits not passed: ${failing.join('; ')}`).toBe(1);
  });
}
