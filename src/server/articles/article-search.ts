import { normalizeName } from '../../i18n/normalize.ts';
import type { Article } from './catalog.ts';

/** The most articles one search answers: enough to choose from, small whatever the archive's size. */
export const ARTICLE_SEARCH_LIMIT = 10;

/** What a word found in each part of an article is worth: a title names the subject, a body may only mention it. */
const WEIGHTS = { title: 8, excerpt: 4, body: 1 } as const;

/** Mentions in a body counted at most: a long article saying a word often is not more about it than a short one. */
const BODY_MENTIONS = 5;

interface Folded {
  title: string;
  excerpt: string;
  body: string;
}

/**
 * Each article's text in the compared form, worked out at its first search:
 * an article is one object for as long as the catalog lives (a day's view
 * reuses it), so every later search reads the folded text.
 */
const folded = new WeakMap<Article, Folded>();

function foldedOf(article: Article): Folded {
  let text = folded.get(article);
  if (!text) {
    text = { title: normalizeName(article.title), excerpt: normalizeName(article.excerpt), body: normalizeName(article.content) };
    folded.set(article, text);
  }
  return text;
}

function mentions(text: string, word: string): number {
  let count = 0;
  for (let at = text.indexOf(word); at !== -1 && count < BODY_MENTIONS; at = text.indexOf(word, at + word.length)) count += 1;
  return count;
}

/**
 * The articles that hold every word of `query`, best first, at most
 * ARTICLE_SEARCH_LIMIT. Words are compared as the city search compares names
 * (case, accents and vowel signs ignored, src/i18n/normalize.ts), as parts of
 * words, so that scripts written without spaces match too. A word counts
 * WEIGHTS.title in the title, WEIGHTS.excerpt in the excerpt and
 * WEIGHTS.body per mention in the body (at most BODY_MENTIONS); the whole
 * query found as written in the title counts once more. Equal scores keep
 * the list's order, newest first. A query without a letter or digit finds nothing.
 */
export function searchArticles(articles: readonly Article[], query: string): Article[] {
  const phrase = normalizeName(query);
  const words = [...new Set(phrase.split(' ').filter((word) => word !== ''))];
  if (words.length === 0) return [];
  const scored: { article: Article; score: number }[] = [];
  for (const article of articles) {
    const text = foldedOf(article);
    let score = 0;
    for (const word of words) {
      const found =
        (text.title.includes(word) ? WEIGHTS.title : 0) +
        (text.excerpt.includes(word) ? WEIGHTS.excerpt : 0) +
        WEIGHTS.body * mentions(text.body, word);
      if (found === 0) {
        score = 0;
        break;
      }
      score += found;
    }
    if (score === 0) continue;
    if (words.length > 1 && text.title.includes(phrase)) score += WEIGHTS.title;
    scored.push({ article, score });
  }
  // Array sort is stable: equal scores stay newest first.
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, ARTICLE_SEARCH_LIMIT)
    .map(({ article }) => article);
}
