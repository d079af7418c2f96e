import { normalizeName } from '../../i18n/normalize.ts';
import type { LanguageCode } from '../../i18n/languages.ts';
import type { ArticleItem, PublishedView } from './catalog.ts';

/** The most articles one search answers: enough to choose from, small whatever the archive's size. */
export const ARTICLE_SEARCH_LIMIT = 10;

/** What a word found in each part of an article is worth: a title names the subject, a body may only mention it. */
const WEIGHTS = { title: 8, excerpt: 4, body: 1 } as const;

/** Mentions in a body counted at most: a long article saying a word often is not more about it than a short one. */
const BODY_MENTIONS = 5;

function mentions(text: string, word: string): number {
  let count = 0;
  for (let at = text.indexOf(word); at !== -1 && count < BODY_MENTIONS; at = text.indexOf(word, at + word.length)) count += 1;
  return count;
}

/**
 * The published articles in `lang` that hold every word of `query`, best
 * first, at most ARTICLE_SEARCH_LIMIT. Words are compared as the city search
 * compares names (case, accents and vowel signs ignored, src/i18n/normalize.ts),
 * as parts of words, so that scripts written without spaces match too. A word
 * counts WEIGHTS.title in the title, WEIGHTS.excerpt in the excerpt and
 * WEIGHTS.body per mention in the body (at most BODY_MENTIONS); the whole
 * query found as written in the title counts once more. Equal scores keep
 * the list's order, newest first. A query without a letter or digit finds
 * nothing. Bodies are read one at a time, where the catalog keeps them, and
 * none is held after: a search costs reads, not memory, however large the archive.
 */
export async function searchArticles(view: PublishedView, lang: LanguageCode, query: string): Promise<ArticleItem[]> {
  const phrase = normalizeName(query);
  const words = [...new Set(phrase.split(' ').filter((word) => word !== ''))];
  if (words.length === 0) return [];
  const scored: { article: ArticleItem; score: number }[] = [];
  for (const article of view.list(lang)) {
    const title = normalizeName(article.title);
    const excerpt = normalizeName(article.excerpt);
    const body = normalizeName((await view.read(article.slug, article.lang))?.content ?? '');
    let score = 0;
    for (const word of words) {
      const found =
        (title.includes(word) ? WEIGHTS.title : 0) + (excerpt.includes(word) ? WEIGHTS.excerpt : 0) + WEIGHTS.body * mentions(body, word);
      if (found === 0) {
        score = 0;
        break;
      }
      score += found;
    }
    if (score === 0) continue;
    if (words.length > 1 && title.includes(phrase)) score += WEIGHTS.title;
    scored.push({ article, score });
  }
  // Array sort is stable: equal scores stay newest first.
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, ARTICLE_SEARCH_LIMIT)
    .map(({ article }) => article);
}
