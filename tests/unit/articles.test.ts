import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CONTENT_BODIES_FILE, CONTENT_INDEX_FILE, contentFiles, openBuiltContent } from '../../src/server/articles/built-content.ts';
import { serveArticles } from '../../src/server/articles/articles-response.ts';
import { apiRequestOf } from '../../src/server/api-frame/api-request.ts';
import { createCatalog, todayUtc } from '../../src/server/articles/catalog.ts';
import { LANGUAGE_CODES } from '../../src/i18n/languages.ts';
import { readingTime } from '../../src/server/articles/reading-time.ts';
import { parseArticlePath, type ArticleSource } from '../../src/server/articles/source.ts';
import { englishStamp } from '../../src/server/articles/translation-stamp.ts';

const SITE = 'https://example.org';

function source(overrides: Partial<ArticleSource>): ArticleSource {
  return { slug: 'a', lang: 'en', title: 'A', date: '2026-01-01', excerpt: 'e', draft: false, body: 'one two three', ...overrides };
}

describe('reading time', () => {
  test('about 200 words a minute, rounded up, at least one', () => {
    assert.equal(readingTime('', 'en'), 1);
    assert.equal(readingTime('word '.repeat(200), 'en'), 1);
    assert.equal(readingTime('word '.repeat(201), 'fr'), 2);
    assert.equal(readingTime('слово '.repeat(1000), 'ru'), 5);
  });
  test('about 500 characters a minute in Japanese, Chinese and Korean', () => {
    assert.equal(readingTime('字'.repeat(500), 'zh'), 1);
    assert.equal(readingTime('字'.repeat(501), 'ja'), 2);
    assert.equal(readingTime('한국어 '.repeat(400), 'ko'), 3);
  });
  test('image addresses do not count', () => {
    assert.equal(readingTime(`${'word '.repeat(200)}![](/images/${'long-'.repeat(100)}.svg)`, 'en'), 1);
  });
  test('counts what the definition’s patterns match, in every script, markup and astral characters included', () => {
    // The definition: words are runs of letters and digits; characters, where counted, are neither space, punctuation
    // nor Markdown's markup; images are left out.
    const units = (text: string, characters: boolean) => {
      const prose = text.replace(/!\[[^\]]*\]\([^)]*\)/g, ' ').replace(/[#>*_`|~-]+/g, ' ');
      return (prose.match(characters ? /[^\s\p{P}]/gu : /[\p{L}\p{N}]+/gu) ?? []).length;
    };
    const alphabet = ['a', 'Z', '7', 'é', 'ß', '字', '한', 'я', 'ا', 'ק', 'ह', 'ⵣ', '😀', '𝒜', '\ud800', '\u00a0', '\u200b'];
    const marks = ['-', '#', '>', '*', '_', '`', '|', '~', ' ', '\n', '.', '،', '«', '—', '!', '[', ']', '(', ')'];
    const symbols = [...alphabet, ...marks];
    let seed = 2026;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    for (let sample = 0; sample < 2000; sample += 1) {
      let text = '';
      for (let length = next() % 40; length > 0; length -= 1) text += symbols[next() % symbols.length] ?? '';
      // Repeated with a space between, so that a difference of one unit changes the minutes.
      const long = `${text} `.repeat(500);
      assert.equal(readingTime(long, 'en'), Math.max(1, Math.ceil(units(long, false) / 200)), JSON.stringify(text));
      assert.equal(readingTime(long, 'zh'), Math.max(1, Math.ceil(units(long, true) / 500)), JSON.stringify(text));
    }
  });
});

describe('content paths', () => {
  test('slug and language from <slug>/<lang>.md', () => {
    assert.deepEqual(parseArticlePath('my-article/fr.md'), { slug: 'my-article', lang: 'fr' });
    assert.deepEqual(parseArticlePath('my-article/kab.mdx'), { slug: 'my-article', lang: 'kab' });
    assert.deepEqual(parseArticlePath('my-article/en'), { slug: 'my-article', lang: 'en' });
  });
  test('a bad folder or language fails, naming the file', () => {
    assert.throws(() => parseArticlePath('My_Article/en.md'), /content\/articles\/My_Article\/en\.md.*not a slug/);
    assert.throws(() => parseArticlePath('article/xx.md'), /content\/articles\/article\/xx\.md.*language/);
    assert.throws(() => parseArticlePath('article/deeper/en.md'), /content\/articles\/article\/deeper\/en\.md/);
  });
});

describe('the catalog', () => {
  const catalog = createCatalog(
    [
      source({ slug: 'old', date: '2025-05-01', title: 'Old' }),
      source({ slug: 'old', lang: 'fr', title: 'Vieux', body: 'un deux' }),
      source({ slug: 'new', date: '2026-02-01', title: 'New' }),
      source({ slug: 'draft', date: '2026-01-15', draft: true }),
      source({ slug: 'later', date: '2026-03-01' }),
    ],
    SITE,
  );

  test('newest first, drafts never, future articles from their date on', () => {
    assert.deepEqual(
      catalog
        .on('2026-02-28')
        .list('en')
        .map((article) => article.slug),
      ['new', 'old'],
    );
    assert.deepEqual(
      catalog
        .on('2026-03-01')
        .list('en')
        .map((article) => article.slug),
      ['later', 'new', 'old'],
    );
    assert.equal(catalog.on('2026-02-28').get('later', 'en'), null);
    assert.equal(catalog.on('2030-01-01').get('draft', 'en'), null);
  });

  test('a translation answers in its language; a missing one falls back to English', async () => {
    const view = catalog.on('2026-12-31');
    assert.deepEqual(
      view.list('fr').map(({ slug, lang, title, url }) => ({ slug, lang, title, url })),
      [
        { slug: 'later', lang: 'en', title: 'A', url: `${SITE}/articles/later` },
        { slug: 'new', lang: 'en', title: 'New', url: `${SITE}/articles/new` },
        { slug: 'old', lang: 'fr', title: 'Vieux', url: `${SITE}/fr/articles/old` },
      ],
    );
    assert.equal((await view.read('old', 'fr'))?.content, 'un deux');
  });

  test('a translation keeps the date of the English original', () => {
    assert.equal(catalog.on('2026-12-31').get('old', 'fr')?.date, '2025-05-01');
  });

  test('a translation is outdated unless it carries the stamp of the English body; English never is', () => {
    const stamped = createCatalog(
      [
        source({ slug: 's', body: 'English text' }),
        source({ slug: 's', lang: 'fr', translatedFrom: englishStamp('\r\nEnglish text\r\n\r\n') }),
        source({ slug: 's', lang: 'de', translatedFrom: englishStamp('Older English text') }),
        source({ slug: 's', lang: 'ja' }),
      ],
      SITE,
    );
    const outdated = (lang: 'en' | 'fr' | 'de' | 'ja' | 'ko') => [
      stamped.isOutdated('s', lang),
      stamped.on('2030-01-01').get('s', lang)?.outdated,
    ];
    assert.deepEqual(outdated('en'), [false, false]);
    assert.deepEqual(outdated('fr'), [false, false]);
    assert.deepEqual(outdated('de'), [true, true]);
    assert.deepEqual(outdated('ja'), [true, true]);
    assert.deepEqual(outdated('ko'), [false, false], 'an untranslated language shows the English original');
  });

  test('an article without its English original fails, naming it', () => {
    assert.throws(() => createCatalog([source({ slug: 'orphan', lang: 'de' })], SITE), /content\/articles\/orphan.*English/);
  });

  test('todayUtc is the UTC calendar date, whichever day was asked before', () => {
    assert.equal(todayUtc(Date.parse('2026-03-01T23:30:00-05:00')), '2026-03-02');
    assert.equal(todayUtc(Date.parse('2026-03-02T23:59:59.999Z')), '2026-03-02');
    assert.equal(todayUtc(Date.parse('2026-03-03T00:00:00.000Z')), '2026-03-03');
    assert.equal(todayUtc(Date.parse('2026-03-02T00:00:00.000Z')), '2026-03-02');
    assert.equal(todayUtc(Date.parse('2026-03-01T23:59:59.999Z')), '2026-03-01');
    assert.equal(todayUtc(Date.parse('1969-12-31T12:00:00Z')), '1969-12-31');
  });
});

describe('GET /api/articles answers', () => {
  const view = createCatalog([source({ slug: 'only' })], SITE).on('2026-06-01');
  test('unknown lang falls back to English; a malformed slug is a 404', async () => {
    const list = await serveArticles(apiRequestOf(new Request(`${SITE}/api/articles?lang=zz`)), view, SITE);
    assert.equal(((await list.toResponse().json()) as { lang: string }).lang, 'en');
    assert.equal((await serveArticles(apiRequestOf(new Request(`${SITE}/api/articles?slug=Only`)), view, SITE)).status, 404);
    assert.equal((await serveArticles(apiRequestOf(new Request(`${SITE}/api/articles?slug=only.v2`)), view, SITE)).status, 404);
  });
  test('If-None-Match with the current tag gives 304', async () => {
    const first = await serveArticles(apiRequestOf(new Request(`${SITE}/api/articles`)), view, SITE);
    const etag = first.headers.get('ETag') ?? '';
    const again = await serveArticles(
      apiRequestOf(new Request(`${SITE}/api/articles`, { headers: { 'If-None-Match': etag } })),
      view,
      SITE,
    );
    assert.equal(again.status, 304);
  });
});

describe("the build's content files", () => {
  const sources = [
    source({ slug: 'first', date: '2026-01-01', title: 'First', body: 'The first body, ünïcode and all.' }),
    source({ slug: 'first', lang: 'ja', title: '最初', body: '最初の本文' }),
    source({ slug: 'second', date: '2026-02-01', title: 'Second', body: 'The second body.' }),
    source({ slug: 'hidden', date: '2026-01-15', draft: true, body: 'never written' }),
  ];
  const home = { title: 'Home', description: 'd', body: '# Hi', html: '<p>Hi</p>' };

  async function opened(change?: (bodies: Buffer) => void) {
    const dir = await mkdtemp(join(tmpdir(), 'built-content-'));
    const { index, bodies } = contentFiles(sources, { 'home/en': home });
    change?.(bodies);
    await writeFile(join(dir, CONTENT_INDEX_FILE), index);
    await writeFile(join(dir, CONTENT_BODIES_FILE), bodies);
    return openBuiltContent(dir, SITE);
  }

  test('the catalog read back lists what the collection does and reads each body from its place', async () => {
    const view = (await opened()).catalog.on('2026-12-31');
    const inMemory = createCatalog(sources, SITE).on('2026-12-31');
    // Every language twice: more lists than the catalog keeps made, each made again alike.
    for (const lang of [...LANGUAGE_CODES, ...LANGUAGE_CODES]) assert.deepEqual(view.list(lang), inMemory.list(lang), lang);
    assert.equal((await view.read('first', 'ja'))?.content, '最初の本文');
    assert.equal((await view.read('first', 'fr'))?.content, 'The first body, ünïcode and all.', 'English where untranslated');
    assert.equal((await view.read('second', 'en'))?.content, 'The second body.');
    assert.equal(await view.read('hidden', 'en'), null);
  });

  test('the catalog read back has the digest and the languages of each translation, as the collection does', async () => {
    const built = (await opened()).catalog;
    const inMemory = createCatalog(sources, SITE);
    for (const slug of ['first', 'second', 'hidden']) {
      assert.deepEqual(built.languagesOf(slug), inMemory.languagesOf(slug), slug);
      for (const lang of LANGUAGE_CODES) assert.equal(built.digestOf(slug, lang), inMemory.digestOf(slug, lang), `${slug} ${lang}`);
    }
    assert.match(built.digestOf('first', 'ja') ?? '', /^[\w-]{43}$/);
  });

  test('a page is kept in the languages it is written in; a bodies file changed since fails the read, never answers other text', async () => {
    const content = await opened((bodies) => bodies.write('X', 0));
    assert.deepEqual(content.page('home', 'en'), home);
    assert.equal(content.page('home', 'fr'), undefined);
    await assert.rejects(content.catalog.on('2026-12-31').read('first', 'en'), /changed since the site started/);
    assert.equal((await content.catalog.on('2026-12-31').read('second', 'en'))?.content, 'The second body.');
  });
});
