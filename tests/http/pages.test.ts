import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { assertRevalidates, request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

const SITE_URL = 'http://localhost:4321';
const MARKDOWN = 'text/markdown; charset=utf-8';
const HTML = 'text/html; charset=utf-8';

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE);
});
after(async () => {
  await site.stop();
});

function htmlAttributes(html: string): { lang?: string; dir?: string } {
  const tag = /<html([^>]*)>/.exec(html)?.[1] ?? '';
  const lang = /\blang="([^"]+)"/.exec(tag)?.[1];
  const dir = /\bdir="([^"]+)"/.exec(tag)?.[1];
  return { ...(lang ? { lang } : {}), ...(dir ? { dir } : {}) };
}

function title(html: string): string {
  return /<h1>([^<]+)<\/h1>/.exec(html)?.[1] ?? '';
}

describe('pages', () => {
  const pages = [
    { path: '/', lang: 'en', dir: 'ltr' },
    { path: '/fr/', lang: 'fr', dir: 'ltr' },
    { path: '/ar/', lang: 'ar', dir: 'rtl' },
    { path: '/he/', lang: 'he', dir: 'rtl' },
    { path: '/articles/the-price-of-a-beer', lang: 'en', dir: 'ltr' },
    { path: '/fr/articles/the-price-of-a-beer', lang: 'fr', dir: 'ltr' },
    { path: '/ar/articles/the-price-of-a-beer', lang: 'ar', dir: 'rtl' },
    { path: '/kab/articles/one-site-fifteen-languages', lang: 'kab', dir: 'ltr' },
    { path: '/projects', lang: 'en', dir: 'ltr' },
    { path: '/ar/projects', lang: 'ar', dir: 'rtl' },
    { path: '/ja/projects', lang: 'ja', dir: 'ltr' },
  ];
  for (const { path, lang, dir } of pages) {
    test(`${path}: <html lang="${lang}" dir="${dir}">, canonical and hreflang alternates`, async () => {
      const answer = await request(`${site.url}${path}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], HTML);
      assert.deepEqual(htmlAttributes(answer.text), { lang, dir });
      const canonical = path === '/' || path.endsWith('/') ? path : path;
      assert.ok(answer.text.includes(`<link rel="canonical" href="${SITE_URL}${canonical}">`), 'canonical');
      const alternates = [...answer.text.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => m[1]);
      assert.ok(alternates.includes(lang) && alternates.includes('x-default') && alternates.length >= 3, alternates.join());
      assert.ok(answer.text.includes('rel="alternate" type="text/markdown"'), 'the twin is linked');
      assert.match(String(answer.headers['vary']), /\bAccept\b/);
    });
  }

  test('the language switcher links every language, the current one marked', async () => {
    const page = (await request(`${site.url}/ar/articles/the-price-of-a-beer`)).text;
    const html = /<details class="language-switcher">[\s\S]*?<\/details>/.exec(page)?.[0] ?? '';
    const links = [...html.matchAll(/<a href="([^"]+)" hreflang="([^"]+)" lang="[^"]+"( aria-current="page")?>/g)];
    assert.equal(links.length, 15);
    assert.deepEqual(
      links.filter((link) => link[3]).map((link) => link[1]),
      ['/ar/articles/the-price-of-a-beer'],
    );
    assert.ok(links.some((link) => link[1] === '/fr/articles/the-price-of-a-beer'));
  });

  test('the home page lists the latest published articles in its language, newest first', async () => {
    const html = (await request(`${site.url}/fr/`)).text;
    const links = [...html.matchAll(/<h3[^>]*><a href="([^"]+)"/g)].map((m) => m[1]);
    // The test site shows the latest three (tests/support/fixtures.ts, FIXTURE_LIST_SIZES).
    assert.deepEqual(links, [
      '/fr/articles/one-site-fifteen-languages',
      '/fr/articles/the-price-of-a-beer',
      '/fr/articles/a-small-web-server',
    ]);
  });

  test('a byline reads "date · reading time", spaced on both sides of the dot, on the article and in lists', async () => {
    for (const path of ['/articles/writing-in-plain-text', '/']) {
      const html = (await request(`${site.url}${path}`)).text;
      const bylines = [...html.matchAll(/<p class="meta"[^>]*>(.*?)<\/p>/gs)].map((m) => (m[1] ?? '').replace(/<[^>]+>/g, ''));
      assert.ok(bylines.length > 0, path);
      for (const byline of bylines) assert.match(byline, /\d \u00b7 \d+ min read$/, `${path}: ${byline}`);
    }
  });

  test('an article page shows the rendered Markdown: headings, a table, code, an image with alt text', async () => {
    const html = (await request(`${site.url}/he/articles/a-small-web-server`)).text;
    assert.match(html, /<h2[^>]*>/);
    assert.match(html, /<table>/);
    assert.match(html, /<pre[^>]*><code/);
    assert.match(html, /<img [^>]*alt="[^"]+"[^>]*>/);
    assert.match(html, /<img [^>]*src="\/images\/a-small-web-server\.svg"/);
  });

  test('the .mdx article renders its <details> block', async () => {
    const html = (await request(`${site.url}/de/articles/one-site-fifteen-languages`)).text;
    assert.match(html, /<details>\s*<summary>[^<]+<\/summary>/);
  });

  for (const path of [
    '//evil.example/nope',
    '/nope',
    '/articles/no-such-article',
    '/xx/',
    '/en/',
    '/articles/draft-notes',
    '/articles/only-in-english.v1',
    '/fr/articles/only-in-english',
    '/content-index.jsonl',
    '/content-bodies.txt',
    '/agents.md/',
    '/404.html',
  ]) {
    test(`${path}: the site's 404 page`, async () => {
      const answer = await request(`${site.url}${path}`);
      assert.equal(answer.status, 404);
      assert.equal(answer.headers['content-type'], HTML);
      assert.match(answer.text, path.startsWith('/fr/') ? /Page introuvable/ : /Page not found/);
      assert.equal(htmlAttributes(answer.text).lang, path.startsWith('/fr/') ? 'fr' : 'en');
    });
  }

  test('a missing page under a language prefix says so in that language; the pages have no address of their own', async () => {
    const french = await request(`${site.url}/fr/articles/nulle-part`);
    assert.equal(french.status, 404);
    assert.deepEqual(htmlAttributes(french.text), { lang: 'fr', dir: 'ltr' });
    assert.match(french.text, /href="\/fr\/"/);
    const arabic = await request(`${site.url}/ar/nowhere`);
    assert.equal(arabic.status, 404);
    assert.deepEqual(htmlAttributes(arabic.text), { lang: 'ar', dir: 'rtl' });
    assert.notEqual(title(arabic.text), title(french.text));
    for (const path of ['/not-found', '/fr/not-found', '/ar/not-found/']) {
      const answer = await request(`${site.url}${path}`);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.headers['cache-control'], 'no-store');
    }
  });

  test('pages are read only: PUT and POST answer 405', async () => {
    for (const method of ['PUT', 'POST', 'DELETE']) {
      const answer = await request(`${site.url}/articles/the-price-of-a-beer`, { method, body: 'x' });
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers['allow'], 'GET, HEAD');
    }
  });

  test('static pages: ETag and 304, brotli, HEAD without body', async () => {
    const url = `${site.url}/ar/articles/writing-in-plain-text`;
    const { first } = await assertRevalidates(url);
    const br = await request(url, { headers: { 'Accept-Encoding': 'gzip, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.body).toString(), first.text);
    const head = await request(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-length'], String(first.body.length));
  });
});

describe('Markdown twins', () => {
  const twins = [
    { page: '/', twin: '/index.md' },
    { page: '/fr/', twin: '/fr/index.md' },
    { page: '/projects', twin: '/projects.md' },
    { page: '/ar/projects', twin: '/ar/projects.md' },
    { page: '/articles/writing-in-plain-text', twin: '/articles/writing-in-plain-text.md' },
    { page: '/ar/articles/writing-in-plain-text', twin: '/ar/articles/writing-in-plain-text.md' },
    { page: '/ja/articles/the-price-of-a-beer', twin: '/ja/articles/the-price-of-a-beer.md' },
    { page: '/es/articles/one-site-fifteen-languages', twin: '/es/articles/one-site-fifteen-languages.md' },
  ];
  for (const { page, twin } of twins) {
    test(`${twin} is Markdown, and ${page} answers it for Accept: text/markdown`, async () => {
      const html = await request(`${site.url}${page}`);
      const markdown = await request(`${site.url}${twin}`);
      assert.equal(markdown.status, 200);
      assert.equal(markdown.headers['content-type'], MARKDOWN);
      const heading = /^# (.+)$/m.exec(markdown.text)?.[1];
      assert.ok(heading, 'the twin starts with the page title');
      assert.equal(title(html.text) || 'Longhand', heading.replace(/&/g, '&amp;'));
      const negotiated = await request(`${site.url}${page}`, { headers: { Accept: 'text/markdown, text/html;q=0.9' } });
      assert.equal(negotiated.status, 200);
      assert.equal(negotiated.headers['content-type'], MARKDOWN);
      assert.equal(negotiated.text, markdown.text);
      assert.match(String(negotiated.headers['vary']), /\bAccept\b/);
    });
  }

  test('the home twin read at its own address, then negotiated from the cache, still says Vary: Accept', async () => {
    await request(`${site.url}/kab/index.md`);
    const negotiated = await request(`${site.url}/kab/`, { headers: { Accept: 'text/markdown' } });
    assert.equal(negotiated.headers['content-type'], MARKDOWN);
    assert.ok(negotiated.headers['age'] !== undefined, 'served from the cache');
    assert.match(String(negotiated.headers['vary']), /\bAccept\b/);
  });

  test('a browser Accept header gets HTML, and text/html ranked higher wins', async () => {
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const accept of [browserAccept, 'text/html, text/markdown;q=0.5', '*/*', 'text/markdown;q=0']) {
      const answer = await request(`${site.url}/fr/articles/the-price-of-a-beer`, { headers: { Accept: accept } });
      assert.equal(answer.headers['content-type'], HTML, accept);
    }
  });

  test('the article twin says what the page says: title, date, body text', async () => {
    const markdown = (await request(`${site.url}/fr/articles/the-price-of-a-beer.md`)).text;
    const html = (await request(`${site.url}/fr/articles/the-price-of-a-beer`)).text;
    assert.match(markdown, /19 juillet 2026/);
    assert.match(html, /19 juillet 2026/);
    const api = (await request(`${site.url}/api/articles?slug=the-price-of-a-beer&lang=fr`)).json<{ article: { content: string } }>();
    assert.ok(markdown.includes(api.article.content.trim()), 'the twin carries the whole article body');
  });

  test('the home twin lists the same articles as the home page', async () => {
    const markdown = (await request(`${site.url}/ar/index.md`)).text;
    const links = [...markdown.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((m) => new URL(m[1] ?? '').pathname);
    const html = (await request(`${site.url}/ar/`)).text;
    assert.deepEqual(
      links,
      [...html.matchAll(/<h3[^>]*><a href="([^"]+)"/g)].map((m) => m[1]),
    );
  });
});
