import { expect, test } from '@playwright/test';
import { newReaderAddress } from '../support/writes.ts';

const ATOM = 'http://www.w3.org/2005/Atom';

/** What a feed reader needs of an Atom document (RFC 4287), read by the browser's own XML parser. */
interface ParsedFeed {
  error: string | null;
  root: string;
  feed: { id: string; title: string; updated: string };
  entries: { id: string; title: string; updated: string; author: string; content: string; contentType: string }[];
}

test('the comment feeds are found from the article page and parse as Atom, with every required element', async ({ page, baseURL }) => {
  const now = Date.now();
  const stamp = `**Followed** & <b>read</b> ${now}`;
  const posted = await page.request.post('/api/comments', {
    data: { articleSlug: 'the-price-of-a-beer', body: stamp },
    headers: { Origin: baseURL ?? '', 'X-Forwarded-For': newReaderAddress() },
  });
  expect(posted.status()).toBe(200);
  await page.goto('/ja/articles/the-price-of-a-beer');
  const hrefs = await page
    .locator('head link[rel="alternate"][type="application/atom+xml"]')
    .evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
  expect(hrefs.map((href) => new URL(href).pathname)).toEqual(['/ja/threads/the-price-of-a-beer.atom', '/ja/comments.atom']);
  for (const href of hrefs) {
    const answer = await page.request.get(new URL(href).pathname);
    expect(answer.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
    const parsed = await page.evaluate(
      ([text, ns]) => {
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        const child = (parent: Element, name: string) => parent.getElementsByTagNameNS(ns, name)[0];
        const root = doc.documentElement;
        const own = (name: string) => [...root.children].find((element) => element.localName === name && element.namespaceURI === ns);
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          root: `${root.namespaceURI ?? ''} ${root.localName}`,
          feed: { id: own('id')?.textContent ?? '', title: own('title')?.textContent ?? '', updated: own('updated')?.textContent ?? '' },
          entries: [...root.getElementsByTagNameNS(ns, 'entry')].map((entry) => ({
            id: child(entry, 'id')?.textContent ?? '',
            title: child(entry, 'title')?.textContent ?? '',
            updated: child(entry, 'updated')?.textContent ?? '',
            author: child(entry, 'author')?.getElementsByTagNameNS(ns, 'name')[0]?.textContent ?? '',
            content: child(entry, 'content')?.textContent ?? '',
            contentType: child(entry, 'content')?.getAttribute('type') ?? '',
          })),
        } satisfies ParsedFeed;
      },
      [await answer.text(), ATOM] as const,
    );
    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe(`${ATOM} feed`);
    expect(parsed.feed.id).toBe(href);
    expect(parsed.feed.title).toContain('コメント');
    expect(Number.isNaN(Date.parse(parsed.feed.updated))).toBe(false);
    expect(parsed.entries.length).toBeGreaterThan(0);
    for (const entry of parsed.entries) {
      expect(entry.id).toMatch(/^http:\/\/.+#comment-/);
      expect(entry.title).not.toBe('');
      expect(Number.isNaN(Date.parse(entry.updated))).toBe(false);
      expect(entry.author).toMatch(/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u);
      expect(entry.contentType).toBe('html');
    }
    // The page's HTML of the reader's Markdown, once the parser undoes the feed's escaping: the reader's own tags are text in it.
    expect(parsed.entries.map((entry) => entry.content)).toContain(
      `<p><strong>Followed</strong> &amp; &lt;b&gt;read&lt;/b&gt; ${now}</p>\n`,
    );
  }
});
