import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../../i18n/languages.ts';

export interface ScheduledArticle {
  slug: string;
  date: string;
}

/** A prerendered article path (`/articles/<slug>`, `/fr/articles/<slug>/`, `….md`), with its slug: `articlePath`'s forms. */
const ARTICLE_PATH = new RegExp(
  `^(?:/(?:${LANGUAGE_CODES.filter((code) => code !== DEFAULT_LANGUAGE).join('|')}))?/articles/([a-z0-9-]+)(?:/|\\.md)?$`,
);

/**
 * The date before which a prerendered article path must answer 404, by
 * path (undefined for every other path): pages of a future-dated article are
 * built ahead and appear on their date, without a rebuild, like the API's
 * answers. One date an article, whatever its languages.
 */
export function notBeforeDates(articles: readonly ScheduledArticle[]): (pathname: string) => string | undefined {
  const dates = new Map(articles.map(({ slug, date }) => [slug, date]));
  return (pathname) => {
    const slug = ARTICLE_PATH.exec(pathname)?.[1];
    return slug === undefined ? undefined : dates.get(slug);
  };
}
