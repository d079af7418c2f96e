import { LANGUAGE_CODES } from '../../i18n/languages.ts';
import { articlePath } from '../articles/catalog.ts';

/**
 * The build writes every article's date to this file (src/pages/publication-schedule.json.ts);
 * the front server reads it and never serves it.
 */
export const SCHEDULE_PATH = '/publication-schedule.json';

export interface ScheduledArticle {
  slug: string;
  date: string;
}

/**
 * The date before which each prerendered article path must answer 404: pages
 * of a future-dated article are built ahead and appear on their date, without
 * a rebuild, like the API's answers.
 */
export function notBeforeDates(articles: readonly ScheduledArticle[]): Map<string, string> {
  const dates = new Map<string, string>();
  for (const { slug, date } of articles) {
    for (const lang of LANGUAGE_CODES) {
      const page = articlePath(slug, lang);
      for (const path of [page, `${page}/`, `${page}.md`]) dates.set(path, date);
    }
  }
  return dates;
}
