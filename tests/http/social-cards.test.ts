import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

/**
 * Social cards: every page names an Open Graph image, an article
 * translation its own, drawn at its first request in its own script and
 * direction and kept on disk (CARDS_DIR).
 */
let site: RunningSite;
let cardsDir = '';
before(async () => {
  cardsDir = await mkdtemp(join(tmpdir(), 'longhand-cards-'));
  site = await startSite(PREPARED_SITE, { CARDS_DIR: cardsDir });
});
after(async () => {
  await site.stop();
  await rm(cardsDir, { recursive: true, force: true });
});

/** A page's Open Graph and Twitter properties, by name (the last of each). */
async function socialMeta(path: string): Promise<Map<string, string>> {
  const page = await request(`${site.url}${path}`);
  assert.equal(page.status, 200, path);
  const found = new Map<string, string>();
  for (const [, name = '', value = ''] of page.text.matchAll(/<meta (?:property|name)="((?:og|twitter):[\w:]+)" content="([^"]*)"/g)) {
    found.set(name, value);
  }
  return found;
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(body: Buffer): { width: number; height: number } {
  assert.deepEqual([...body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  assert.equal(body.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

/** The card a page names, fetched from the site (og:image is absolute, on SITE_URL). */
async function card(meta: Map<string, string>) {
  const image = new URL(meta.get('og:image') ?? '');
  return request(`${site.url}${image.pathname}`);
}

/** Languages of every script the cards draw, with the og:locale each page must name. */
const LOCALES = { en: 'en_US', ar: 'ar_AR', he: 'he_IL', hi: 'hi_IN', ja: 'ja_JP', ko: 'ko_KR', zh: 'zh_CN', kab: 'kab_DZ' };
const ARTICLES = Object.entries(LOCALES).map(([lang, locale]) => ({
  path: `${lang === 'en' ? '' : `/${lang}`}/articles/a-small-web-server`,
  locale,
}));

test('an article translation names its own card, 1200×630, drawn in its script, kept for a year', async () => {
  const versions = new Set<string>();
  for (const { path, locale } of ARTICLES) {
    const meta = await socialMeta(path);
    assert.equal(meta.get('og:type'), 'article', path);
    assert.equal(meta.get('og:locale'), locale, path);
    assert.equal(meta.get('twitter:card'), 'summary_large_image', path);
    assert.ok(meta.get('og:title'), path);
    assert.ok(meta.get('og:description'), path);
    assert.match(meta.get('og:image') ?? '', /^http:\/\/localhost:4321\/cards\/[a-z]+\/articles\/a-small-web-server\.[\w-]{12}\.png$/);
    versions.add(meta.get('og:image') ?? '');
    const image = await card(meta);
    assert.equal(image.status, 200, path);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.match(image.headers['cache-control'] ?? '', /immutable/);
    assert.deepEqual(pngSize(image.body), { width: 1200, height: 630 }, path);
  }
  assert.equal(versions.size, ARTICLES.length, 'a card a translation');
});

test('a page that is not an article names the site card of its language', async () => {
  for (const path of ['/', '/fr/', '/ar/cities', '/ja/answers']) {
    const meta = await socialMeta(path);
    assert.equal(meta.get('og:type'), 'website', path);
    assert.match(meta.get('og:image') ?? '', /\/cards\/[a-z]+\/site\.[\w-]{12}\.png$/, path);
    const image = await card(meta);
    assert.equal(image.status, 200, path);
    assert.deepEqual(pngSize(image.body), { width: 1200, height: 630 }, path);
  }
});

test('a card is drawn once and kept on disk; the same bytes come again', async () => {
  const meta = await socialMeta('/fr/articles/a-small-web-server');
  const first = await card(meta);
  const kept = await readdir(cardsDir);
  const version = /\.([\w-]{12})\.png$/.exec(meta.get('og:image') ?? '')?.[1];
  assert.ok(kept.includes(`${version}.png`), `kept as ${version}.png`);
  const again = await card(meta);
  assert.ok(again.body.equals(first.body));
});

test('no card for an unknown article, another version, an unknown language, or another path', async () => {
  const meta = await socialMeta('/articles/a-small-web-server');
  const path = new URL(meta.get('og:image') ?? '').pathname;
  const version = /\.([\w-]{12})\.png$/.exec(path)?.[1] ?? '';
  for (const missing of [
    path.replace('a-small-web-server', 'no-such-article'),
    path.replace(version, 'AAAAAAAAAAAA'),
    path.replace('/cards/en/', '/cards/xx/'),
    '/cards/en/articles/a-small-web-server.png',
    '/cards/en/articles/../site.png',
  ]) {
    const answer = await request(`${site.url}${missing}`);
    assert.equal(answer.status, 404, missing);
    assert.notEqual(answer.headers['content-type'], 'image/png', missing);
  }
});
