import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTICLE_SEARCH_LIMIT, searchArticles } from '../../src/server/articles/article-search.ts';
import { createCatalog } from '../../src/server/articles/catalog.ts';
import type { ArticleSource } from '../../src/server/articles/source.ts';

function source(overrides: Partial<ArticleSource>): ArticleSource {
  return { slug: 'a', lang: 'en', title: 'A', date: '2026-01-01', excerpt: 'e', draft: false, body: 'text', ...overrides };
}

/** The published articles, as the tool searches them. */
function articles(sources: readonly ArticleSource[]) {
  return createCatalog(sources, 'https://example.org').on('2026-12-31');
}

const slugs = (found: readonly { slug: string }[]) => found.map(({ slug }) => slug);

describe('the article search', () => {
  test('a word in the title outranks the excerpt, which outranks mentions in the text', async () => {
    const view = articles([
      source({ slug: 'in-text', date: '2026-03-01', body: 'Trains, trains and trains.' }),
      source({ slug: 'in-title', date: '2026-01-01', title: 'Night trains' }),
      source({ slug: 'in-excerpt', date: '2026-02-01', excerpt: 'About trains' }),
      source({ slug: 'elsewhere', date: '2026-04-01', body: 'Buses only.' }),
    ]);
    assert.deepEqual(slugs(await searchArticles(view, 'en', 'TRAINS')), ['in-title', 'in-excerpt', 'in-text']);
  });

  test('every word must be found; accents, case and Arabic vowel marks are ignored; equal scores stay newest first', async () => {
    const view = articles([
      source({ slug: 'older', date: '2026-01-01', title: 'Zürich rent' }),
      source({ slug: 'newer', date: '2026-02-01', title: 'Zurich RENT' }),
      source({ slug: 'half', date: '2026-03-01', title: 'Zurich beer' }),
    ]);
    assert.deepEqual(slugs(await searchArticles(view, 'en', 'zurich rent')), ['newer', 'older']);
    const arabic = articles([
      source({ slug: 'beer' }),
      source({ slug: 'beer', lang: 'ar', title: 'ثَمَنُ البيرة' }),
      source({ slug: 'other', title: 'Other' }),
    ]);
    assert.deepEqual(slugs(await searchArticles(arabic, 'ar', 'ثمن')), ['beer']);
  });

  test('at most ARTICLE_SEARCH_LIMIT answers, and nothing for a query without a letter or digit', async () => {
    const many = articles(Array.from({ length: ARTICLE_SEARCH_LIMIT + 5 }, (_, index) => source({ slug: `a${index}`, title: 'Same' })));
    assert.equal((await searchArticles(many, 'en', 'same')).length, ARTICLE_SEARCH_LIMIT);
    assert.deepEqual(await searchArticles(many, 'en', ' -- '), []);
  });
});
