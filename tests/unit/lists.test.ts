import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pagesOf, pageWindow } from '../../src/server/articles/lists.ts';
import { sitemapIndexXml, sitemapXml, splitSitemap, translatedPages } from '../../src/server/discovery/sitemap.ts';
import { readSitemapIndex, readUrlset } from '../support/sitemap-shape.ts';

const SITE = 'https://longhand.test';

describe('paged lists', () => {
  test('cut a list newest first into pages of the size, every item on exactly one page', () => {
    const items = Array.from({ length: 45 }, (_, index) => index);
    const pages = pagesOf(items, 20);
    assert.deepEqual(
      pages.map((page) => [page.number, page.count, page.items.length]),
      [
        [1, 3, 20],
        [2, 3, 20],
        [3, 3, 5],
      ],
    );
    assert.deepEqual(
      pages.flatMap((page) => page.items),
      items,
    );
    assert.deepEqual(
      pagesOf(items.slice(0, 40), 20).map((page) => page.items.length),
      [20, 20],
    );
  });

  test('an empty list still has its first page, and a page holds at least one item', () => {
    assert.deepEqual(pagesOf([], 20), [{ number: 1, count: 1, items: [] }]);
    assert.throws(() => pagesOf([1], 0));
  });

  test('the pager shows the first, the last and two on each side of the current page, with gaps marked', () => {
    assert.deepEqual(pageWindow(1, 1), [1]);
    assert.deepEqual(pageWindow(2, 3), [1, 2, 3]);
    assert.deepEqual(pageWindow(1, 50), [1, 2, 3, null, 50]);
    assert.deepEqual(pageWindow(25, 50), [1, null, 23, 24, 25, 26, 27, null, 50]);
    assert.deepEqual(pageWindow(4, 50), [1, 2, 3, 4, 5, 6, null, 50]);
    assert.deepEqual(pageWindow(50, 50), [1, null, 48, 49, 50]);
    for (let count = 1; count < 200; count += 7) {
      for (let number = 1; number <= count; number += 3) assert.ok(pageWindow(number, count).length <= 9, `${number} of ${count}`);
    }
  });
});

describe('sitemaps past the protocol limits', () => {
  const pages = Array.from({ length: 7 }, (_, index) =>
    translatedPages(SITE, (lang) => `/${lang}/p${index}`, ['en', 'fr'], '2026-01-0' + String(index + 1)),
  ).flat();

  test('one sitemap while the pages fit, valid and complete', () => {
    const [only, ...more] = splitSitemap(pages, 50_000, 52_428_800);
    assert.equal(more.length, 0);
    const read = readUrlset(sitemapXml(only ?? []));
    assert.deepEqual(
      read.map(({ loc }) => loc),
      pages.map(({ url }) => url),
    );
    assert.deepEqual(read[0]?.alternates, { en: `${SITE}/en/p0`, fr: `${SITE}/fr/p0`, 'x-default': `${SITE}/en/p0` });
  });

  test('past the URL limit: several sitemaps, each within it, every page in exactly one, in order', () => {
    const parts = splitSitemap(pages, 4, 52_428_800);
    assert.deepEqual(
      parts.map((part) => part.length),
      [4, 4, 4, 2],
    );
    assert.deepEqual(
      parts.flatMap((part) => readUrlset(sitemapXml(part)).map(({ loc }) => loc)),
      pages.map(({ url }) => url),
    );
  });

  test('past the byte limit: each sitemap within it, measured in UTF-8', () => {
    const wide = translatedPages(SITE, (lang) => `/${lang}/${'é'.repeat(300)}`, ['en', 'fr', 'ar']);
    const limit = Buffer.byteLength(sitemapXml(wide.slice(0, 2)));
    const parts = splitSitemap(wide, 50_000, limit);
    assert.deepEqual(
      parts.map((part) => part.length),
      [2, 1],
    );
    for (const part of parts) assert.ok(Buffer.byteLength(sitemapXml(part)) <= limit);
    assert.throws(() => splitSitemap(wide, 50_000, 200), /alone makes a sitemap larger/);
  });

  test('the index lists each sitemap with its newest lastmod, and reads as a valid sitemap index', () => {
    const parts = splitSitemap(pages, 6, 52_428_800).map((part, index) => ({ url: `${SITE}/sitemaps/${index + 1}.xml`, pages: part }));
    const xml = sitemapIndexXml(parts);
    assert.deepEqual(readSitemapIndex(xml), [`${SITE}/sitemaps/1.xml`, `${SITE}/sitemaps/2.xml`, `${SITE}/sitemaps/3.xml`]);
    assert.match(xml, /<loc>https:\/\/longhand\.test\/sitemaps\/1\.xml<\/loc>\n {4}<lastmod>2026-01-03<\/lastmod>/);
    assert.throws(() => readUrlset(xml), /not a urlset/);
  });

  test('the shape check refuses what the protocol does not allow', () => {
    const good = sitemapXml(pages.slice(0, 1));
    assert.throws(() => readUrlset(good.replace('<loc>', '<loc>/relative')), /Invalid URL|not a sitemap URL/);
    assert.throws(() => readUrlset(good.replace('</url>', '<priority>1</priority><priority>1</priority></url>')), /at most one/);
    assert.throws(() => readUrlset(good.replace('</urlset>', '')), /never closed/);
    assert.throws(() => readUrlset(good.replace('/p0</loc>', '/p0&x</loc>')), /bare &/);
    assert.throws(() => readUrlset(good.replace('<lastmod>2026-01-01', '<lastmod>1 Jan 2026')), /W3C date/);
    assert.throws(() => readUrlset(good.replace('<url>', '<url><image/>')), /not allowed/);
  });
});
