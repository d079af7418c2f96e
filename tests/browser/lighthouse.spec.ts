import { expect, test } from '@playwright/test';
import { expectLighthouse100, launchForLighthouse, type LighthouseBrowser } from '../support/lighthouse.ts';

/**
 * Lighthouse's four categories at 100 on an article page whose thread holds
 * comments in Markdown (quotes, code, lists, links, a reply), in light and
 * dark mode (tests/support/lighthouse.ts).
 */
const ARTICLE = '/he/articles/writing-in-plain-text';
const BODIES = [
  'A **Markdown** comment with `code`, ~~struck~~ and *emphasis*, and [a link](https://example.org/lighthouse)',
  '> A quote with https://example.org/bare\n\n- one\n- two\n\n```\nconst plain = "text";\n```',
];

// One worker runs both modes, on one thread written once.
test.describe.configure({ mode: 'serial' });

let lighthouseBrowser: LighthouseBrowser | undefined;

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
  lighthouseBrowser = await launchForLighthouse();
});
test.afterAll(async () => {
  await lighthouseBrowser?.browser.close();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`Lighthouse 100 on an article whose thread holds Markdown, ${scheme} mode`, async ({ baseURL }) => {
    // A Lighthouse run loads the page several times and traces it, and may be run five times: far longer than a page test.
    test.setTimeout(600_000);
    await expectLighthouse100(lighthouseBrowser as LighthouseBrowser, `${baseURL ?? ''}${ARTICLE}`, scheme);
  });
}
