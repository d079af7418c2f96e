import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LANGUAGE_CODES, languageOf, type LanguageCode } from '../../src/i18n/languages.ts';
import { twinPath } from '../../src/server/http/negotiation.ts';
import { archivePath, DOCUMENT_PATHS, homePath, rssPath } from '../../src/server/http/site-paths.ts';
import { FIXTURE_LIST_SIZES } from '../support/fixtures.ts';
import { request, type Answer } from '../support/http.ts';
import { readSitemapIndex, readUrlset } from '../support/sitemap-shape.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

/**
 * The lists that must stay small as the archive grows, on the test site built
 * with small sizes (tests/support/fixtures.ts): its five published articles
 * overflow the home page and fill three archive pages, its six on the
 * scheduled article's date overflow the feeds, and its pages overflow one
 * sitemap.
 */
const SITE_URL = 'http://localhost:4321';
const { HOME_LATEST, ARCHIVE_PAGE_SIZE, FEED_LATEST } = FIXTURE_LIST_SIZES['src/server/articles/lists.ts'];
const { SITEMAP_MAX_URLS } = FIXTURE_LIST_SIZES['src/server/discovery/sitemap.ts'];
const MARKDOWN = 'text/markdown; charset=utf-8';
/** The day after the fixture's scheduled article (2099-01-01) is published. */
const AFTER_SCHEDULED = '2099-01-02T00:00:00Z';

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE);
});
after(async () => {
  await site.stop();
});

async function get(server: RunningSite, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const answer = await request(`${server.url}${path}`, { headers });
  assert.equal(answer.status, 200, path);
  return answer;
}

/** Every published article's page in `lang`, newest first, as the API lists them all. */
async function published(server: RunningSite, lang: LanguageCode): Promise<string[]> {
  const { articles } = (await get(server, `/api/articles?lang=${lang}`)).json<{ articles: { url: string }[] }>();
  return articles.map(({ url }) => new URL(url).pathname);
}

/** The article links of a list page (each title a heading), in order. */
function listed(html: string): string[] {
  const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '';
  return [...main.matchAll(/<h[23][^>]*>\s*<a href="([^"]+)"/g)].map((match) => match[1] ?? '');
}

/** The article links of a list page's twin, as paths. */
function listedInTwin(markdown: string): string[] {
  return [...markdown.matchAll(/^- \[[^\]]+\]\(([^)]+)\) \(/gm)].map((match) => new URL(match[1] ?? '').pathname);
}

function headLink(html: string, rel: string): string | undefined {
  const href = new RegExp(`<link rel="${rel}" href="([^"]+)">`).exec(html)?.[1];
  return href === undefined ? undefined : new URL(href).pathname;
}

describe('the home page', () => {
  test('shows the latest articles only, and links to the archive, in every language and its twin', async () => {
    for (const lang of LANGUAGE_CODES) {
      const latest = (await published(site, lang)).slice(0, HOME_LATEST);
      assert.ok(latest.length === HOME_LATEST, 'the test site has more articles than the home page shows');
      const html = (await get(site, homePath(lang))).text;
      assert.deepEqual(listed(html), latest, lang);
      assert.ok(html.includes(`<a href="${archivePath(lang)}">`), `${lang}: the home page links to the archive`);
      const twin = (await get(site, twinPath(homePath(lang)) ?? '')).text;
      assert.deepEqual(listedInTwin(twin), latest, `${lang} twin`);
      assert.ok(twin.includes(`](${SITE_URL}${archivePath(lang)})`), `${lang}: the twin links to the archive`);
    }
  });
});

describe('the archive', () => {
  test('in every language: pages that together list every published article exactly once, newest first, with twins, hreflang and the way between them', async () => {
    for (const lang of LANGUAGE_CODES) {
      const all = await published(site, lang);
      const count = Math.ceil(all.length / ARCHIVE_PAGE_SIZE);
      assert.ok(count >= 3, 'the test site has several archive pages');
      const seen: string[] = [];
      for (let number = 1; number <= count; number += 1) {
        const path = archivePath(lang, number);
        const answer = await get(site, path);
        assert.equal(answer.headers['cache-control'], 'public, max-age=60', path);
        const html = answer.text;
        const items = listed(html);
        assert.ok(items.length >= 1 && items.length <= ARCHIVE_PAGE_SIZE, path);
        seen.push(...items);

        // The page in its language and direction, canonical, with every language's same page as alternates.
        assert.match(html, new RegExp(`<html lang="${lang}" dir="${languageOf(lang).dir}"`), path);
        assert.ok(html.includes(`<link rel="canonical" href="${SITE_URL}${path}">`), path);
        for (const code of LANGUAGE_CODES)
          assert.ok(
            html.includes(`<link rel="alternate" hreflang="${code}" href="${SITE_URL}${archivePath(code, number)}">`),
            `${path} ${code}`,
          );
        assert.ok(html.includes(`<link rel="alternate" hreflang="x-default" href="${SITE_URL}${archivePath('en', number)}">`), path);

        // Newer and older: in the head and in the page, the current page marked, in a navigation landmark after one h1.
        const newer = number > 1 ? archivePath(lang, number - 1) : undefined;
        const older = number < count ? archivePath(lang, number + 1) : undefined;
        assert.equal(headLink(html, 'prev'), newer, `${path} rel=prev`);
        assert.equal(headLink(html, 'next'), older, `${path} rel=next`);
        const pager = /<nav class="pager"[^>]* aria-label="([^"]+)"[^>]*>([\s\S]*?)<\/nav>/.exec(html);
        assert.ok(pager?.[1], `${path} has a labelled pager`);
        const nav = pager[2] ?? '';
        assert.equal(/<a [^>]*rel="prev" href="([^"]+)"/.exec(nav)?.[1], newer, path);
        assert.equal(/<a [^>]*rel="next" href="([^"]+)"/.exec(nav)?.[1], older, path);
        const current = [...nav.matchAll(/<a href="([^"]+)"[^>]*aria-current="page"/g)].map((match) => match[1]);
        assert.deepEqual(current, [path], `${path} marks itself, and only itself`);
        assert.equal([...html.matchAll(/<h1[\s>]/g)].length, 1, path);
        assert.match(html, /<main id="main">/, path);

        // The twin says the same: the same articles, and the way to the newer and older pages.
        const twinAt = twinPath(path) ?? '';
        const twin = await get(site, twinAt);
        assert.equal(twin.headers['content-type'], MARKDOWN, twinAt);
        assert.deepEqual(listedInTwin(twin.text), items, twinAt);
        for (const neighbour of [newer, older])
          if (neighbour !== undefined) assert.ok(twin.text.includes(`](${SITE_URL}${neighbour})`), `${twinAt} links ${neighbour}`);
        const negotiated = await get(site, path, { Accept: 'text/markdown' });
        assert.equal(negotiated.text, twin.text, `${path} negotiated`);
      }
      assert.deepEqual(seen, all, `${lang}: every published article exactly once, newest first`);
      assert.equal(new Set(seen).size, seen.length, lang);
    }
  });

  test('has one address a page: no page 1 but /archive, none past the last, none for an unknown language', async () => {
    const count = Math.ceil((await published(site, 'en')).length / ARCHIVE_PAGE_SIZE);
    for (const path of [
      '/archive/1',
      '/archive/0',
      '/archive/02',
      `/archive/${count + 1}`,
      '/archive/x',
      '/fr/archive/1',
      '/xx/archive',
      '/archive/1.md',
      `/ar/archive/${count + 1}.md`,
    ]) {
      assert.equal((await request(`${site.url}${path}`)).status, 404, path);
    }
  });

  test('right to left in Arabic and Hebrew: newer first in the text, older last, as the direction reads', async () => {
    for (const lang of ['ar', 'he'] as const) {
      const html = (await get(site, archivePath(lang, 2))).text;
      assert.match(html, /<html lang="(ar|he)" dir="rtl"/);
      const nav = /<nav class="pager"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
      assert.ok(nav.indexOf('rel="prev"') < nav.indexOf('rel="next"'), lang);
      assert.doesNotMatch(nav, /[←→]/, 'no arrow that would point the wrong way');
    }
  });

  test('lists a scheduled article from its date, without a rebuild, as the home page, the feeds and the API do', async () => {
    const later = await startSite(PREPARED_SITE, { TEST_CLOCK: AFTER_SCHEDULED });
    try {
      assert.deepEqual(listed((await get(later, '/ar/archive')).text).slice(0, 1), ['/ar/articles/next-century']);
      assert.deepEqual(listed((await get(later, '/ar/')).text).slice(0, 1), ['/ar/articles/next-century']);
      // Six published now: the feeds carry the latest five, and the oldest is in the archive only.
      for (const lang of LANGUAGE_CODES) {
        const all = await published(later, lang);
        assert.ok(all.length > FEED_LATEST, 'more articles than a feed carries');
        const feed = (await get(later, rssPath(lang))).text;
        const items = [...feed.matchAll(/<item>\s*<title>[^<]*<\/title>\s*<link>([^<]+)<\/link>/g)].map(
          (match) => new URL(match[1] ?? '').pathname,
        );
        assert.deepEqual(items, all.slice(0, FEED_LATEST), lang);
      }
      const pages = Math.ceil((await published(later, 'en')).length / ARCHIVE_PAGE_SIZE);
      assert.deepEqual(listed((await get(later, archivePath('en', pages))).text).at(-1), '/articles/only-in-english');
    } finally {
      await later.stop();
    }
  });
});

describe('the sitemap past its limit', () => {
  test('/sitemap.xml becomes an index, robots.txt names it, every URL is in exactly one valid sitemap within the limit', async () => {
    const robots = (await get(site, DOCUMENT_PATHS.robots)).text;
    assert.ok(robots.split('\n').includes(`Sitemap: ${SITE_URL}${DOCUMENT_PATHS.sitemap}`));
    const index = await get(site, DOCUMENT_PATHS.sitemap);
    assert.equal(index.headers['content-type'], 'application/xml; charset=utf-8');
    const children = readSitemapIndex(index.text);
    assert.ok(children.length >= 2, 'the lowered limit makes an index');
    const urls: string[] = [];
    for (const child of children) {
      assert.ok(child.startsWith(`${SITE_URL}/sitemaps/`), child);
      const answer = await get(site, new URL(child).pathname);
      assert.equal(answer.headers['content-type'], 'application/xml; charset=utf-8', child);
      assert.equal(answer.headers['cache-control'], 'public, max-age=60', child);
      const entries = readUrlset(answer.text);
      assert.ok(entries.length >= 1 && entries.length <= SITEMAP_MAX_URLS, `${child}: ${entries.length} URLs`);
      urls.push(...entries.map(({ loc }) => loc));
    }
    assert.equal(new Set(urls).size, urls.length, 'no URL in two sitemaps');
    const expected = [
      ...LANGUAGE_CODES.flatMap((lang) => [homePath(lang), archivePath(lang), archivePath(lang, 2), archivePath(lang, 3)]),
      ...(await published(site, 'fr')),
      '/articles/the-price-of-a-beer',
      '/ar/articles/the-price-of-a-beer',
      '/developers',
    ];
    for (const path of expected) assert.ok(urls.includes(`${SITE_URL}${path}`), path);
    assert.ok(!urls.some((url) => url.includes('/archive/4')), 'no archive page past the last');
    assert.equal((await request(`${site.url}/sitemaps/${children.length + 1}.xml`)).status, 404);
    for (const path of ['/sitemaps/0.xml', '/sitemaps/01.xml', '/sitemaps/x.xml', `/sitemaps/${'9'.repeat(5000)}.xml`])
      assert.equal((await request(`${site.url}${path}`)).status, 404, path.slice(0, 40));
  });
});
