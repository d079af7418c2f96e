import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertRevalidates, request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

interface Item {
  slug: string;
  title: string;
  date: string;
  excerpt: string;
  readingTime: number;
  lang: string;
  url: string;
}
interface ListEnvelope {
  site: string;
  lang: string;
  count: number;
  articles: Item[];
}
interface SingleEnvelope {
  site: string;
  lang: string;
  article: Item & { content: string };
}

const SITE_URL = 'http://localhost:4321';
const REAL_SLUGS = ['one-site-fifteen-languages', 'the-price-of-a-beer', 'a-small-web-server', 'writing-in-plain-text'];

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE);
});
after(async () => {
  await site.stop();
});

describe('GET /api/articles, the list', () => {
  for (const lang of ['en', 'fr', 'ar', 'ja']) {
    test(`in ${lang}: every published article, newest first, titles in ${lang}`, async () => {
      const answer = await request(`${site.url}/api/articles?lang=${lang}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      const list = answer.json<ListEnvelope>();
      assert.equal(list.site, SITE_URL);
      assert.equal(list.lang, lang);
      assert.deepEqual(
        list.articles.map((item) => item.slug),
        [...REAL_SLUGS, 'only-in-english'],
      );
      assert.equal(list.count, list.articles.length);
      const dates = list.articles.map((item) => item.date);
      assert.deepEqual(dates, [...dates].sort().reverse());
      for (const item of list.articles.filter((item) => item.slug !== 'only-in-english')) {
        assert.equal(item.lang, lang);
        assert.equal(item.url, `${SITE_URL}${lang === 'en' ? '' : `/${lang}`}/articles/${item.slug}`);
        assert.match(item.date, /^\d{4}-\d{2}-\d{2}$/);
        assert.ok(Number.isInteger(item.readingTime) && item.readingTime >= 1);
        assert.ok(item.excerpt.length > 0);
        assert.equal('content' in item, false);
      }
    });
  }

  test('translated titles differ from the English ones', async () => {
    const english = (await request(`${site.url}/api/articles`)).json<ListEnvelope>();
    const arabic = (await request(`${site.url}/api/articles?lang=ar`)).json<ListEnvelope>();
    const beer = (list: ListEnvelope) => list.articles.find((item) => item.slug === 'the-price-of-a-beer')?.title;
    assert.notEqual(beer(arabic), beer(english));
    assert.match(beer(arabic) ?? '', /\p{Script=Arabic}/u);
  });

  test('an untranslated article falls back to English: its lang is en and its url the English page', async () => {
    const list = (await request(`${site.url}/api/articles?lang=fr`)).json<ListEnvelope>();
    assert.equal(list.lang, 'fr');
    const item = list.articles.find((article) => article.slug === 'only-in-english');
    assert.deepEqual(item && { lang: item.lang, url: item.url, title: item.title }, {
      lang: 'en',
      url: `${SITE_URL}/articles/only-in-english`,
      title: 'Only in English',
    });
  });

  test('an unknown or missing lang answers in English', async () => {
    for (const query of ['?lang=xx', '?lang=', '?lang=EN', '']) {
      const list = (await request(`${site.url}/api/articles${query}`)).json<ListEnvelope>();
      assert.equal(list.lang, 'en', query);
      assert.equal(list.articles[0]?.title, 'One site, fifteen languages');
    }
  });

  test('drafts, future-dated articles and old versions are not listed', async () => {
    const list = (await request(`${site.url}/api/articles`)).json<ListEnvelope>();
    const slugs = list.articles.map((item) => item.slug);
    for (const hidden of ['draft-notes', 'next-century', 'only-in-english.v1']) assert.ok(!slugs.includes(hidden), hidden);
  });
});

describe('GET /api/articles?slug=…, one article', () => {
  test('answers the article with its Markdown body, in the requested language', async () => {
    for (const lang of ['en', 'fr', 'ar']) {
      const answer = await request(`${site.url}/api/articles?slug=the-price-of-a-beer&lang=${lang}`);
      assert.equal(answer.status, 200);
      const { site: siteField, lang: responseLang, article } = answer.json<SingleEnvelope>();
      assert.equal(siteField, SITE_URL);
      assert.equal(responseLang, lang);
      assert.equal(article.slug, 'the-price-of-a-beer');
      assert.equal(article.lang, lang);
      assert.equal(article.date, '2026-07-19');
      assert.match(article.content, /^\|.+\|$/m, 'the Markdown keeps its table');
      assert.match(article.content, /!\[[^\]]+\]\(\/images\/the-price-of-a-beer\.svg\)/);
      assert.doesNotMatch(article.content, /^---$/m, 'no front matter in content');
    }
  });

  test('an untranslated article answers in English', async () => {
    const { article } = (await request(`${site.url}/api/articles?slug=only-in-english&lang=ar`)).json<SingleEnvelope>();
    assert.equal(article.lang, 'en');
    assert.equal(article.url, `${SITE_URL}/articles/only-in-english`);
    assert.match(article.content, /English only/);
  });

  test('reading time counts characters in Japanese and words elsewhere', async () => {
    const english = (await request(`${site.url}/api/articles?slug=a-small-web-server`)).json<SingleEnvelope>().article;
    const words = english.content.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
    assert.equal(english.readingTime, Math.max(1, Math.ceil(words / 200)));
    const japanese = (await request(`${site.url}/api/articles?slug=a-small-web-server&lang=ja`)).json<SingleEnvelope>().article;
    assert.ok(japanese.readingTime >= 1 && japanese.readingTime <= 6, `${japanese.readingTime}`);
  });

  const notFound = {
    'an unknown slug': 'no-such-article',
    'a draft': 'draft-notes',
    'a future-dated article': 'next-century',
    'a version variant': 'only-in-english.v1',
    'a malformed slug (uppercase)': 'The-Price-Of-A-Beer',
    'a malformed slug (path)': '../etc/passwd',
    'a malformed slug (double hyphen)': 'the--price',
    'an empty slug': '',
  };
  for (const [what, slug] of Object.entries(notFound)) {
    test(`404 JSON for ${what}`, async () => {
      const answer = await request(`${site.url}/api/articles?slug=${encodeURIComponent(slug)}&lang=fr`);
      assert.equal(answer.status, 404);
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      const body = answer.json();
      assert.equal(typeof body['error'], 'string');
      assert.ok((body['error'] as string).length > 0);
    });
  }
});

describe('caching of GET /api/articles', () => {
  test('Cache-Control public, max-age=60 and an ETag that answers 304', async () => {
    const url = `${site.url}/api/articles?slug=writing-in-plain-text&lang=ar`;
    const { first, again } = await assertRevalidates(url);
    assert.equal(first.headers['cache-control'], 'public, max-age=60');
    assert.equal(again.headers['api-version'], '1.7.0');
    const etag = String(first.headers['etag']);
    const listTagged = await request(`${site.url}/api/articles`, { headers: { 'If-None-Match': `"stale", W/${etag}` } });
    assert.equal(listTagged.status, 200, 'another resource with an unrelated tag answers in full');
  });

  test('ETags differ per language and the same answer keeps its tag', async () => {
    const tag = async (query: string) => (await request(`${site.url}/api/articles${query}`)).headers['etag'];
    assert.notEqual(await tag('?lang=fr'), await tag('?lang=ar'));
    assert.equal(await tag('?lang=fr'), await tag('?lang=fr'));
  });

  test('gzip and brotli when asked, identical JSON once decoded', async () => {
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const url = `${site.url}/api/articles?lang=ar`;
    const plain = await request(url);
    const br = await request(url, { headers: { 'Accept-Encoding': 'br' } });
    const gzip = await request(url, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(brotliDecompressSync(br.body).toString(), plain.text);
    assert.equal(gunzipSync(gzip.body).toString(), plain.text);
    assert.match(String(br.headers['vary']), /Accept-Encoding/);
  });

  test('reads consume no quota: no RateLimit header, only the policy', async () => {
    const answer = await request(`${site.url}/api/articles`);
    assert.equal(answer.headers['ratelimit'], undefined);
    assert.equal(answer.headers['ratelimit-remaining'], undefined);
  });

  test('HEAD answers the headers without a body', async () => {
    const answer = await request(`${site.url}/api/articles?lang=fr`, { method: 'HEAD' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.length, 0);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
  });
});
