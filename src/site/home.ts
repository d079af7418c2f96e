import { languageFromParam, LANGUAGE_CODES, type LanguageCode } from '../i18n/languages.ts';
import type { ArticleItem } from '../server/articles/catalog.ts';
import { publishedView } from './published.ts';
import { HOME_LATEST } from '../server/articles/lists.ts';
import { pageText } from './content.ts';
import { archivePath, homePath, alternatesOf } from '../server/http/site-paths.ts';

/**
 * What the home page of a language shows, or null when the path names no
 * language. Rendered on demand: the list is the latest `HOME_LATEST` of what
 * is published today, so a future-dated article appears on its date without
 * a rebuild; the archive holds them all.
 */
export async function homePage(langParam: string | undefined) {
  const lang: LanguageCode | null = languageFromParam(langParam);
  if (!lang) return null;
  const page = await pageText('home', lang);
  const articles: readonly ArticleItem[] = (await publishedView()).list(lang).slice(0, HOME_LATEST);
  return {
    lang,
    page,
    articles,
    path: homePath(lang),
    archive: archivePath(lang),
    alternates: alternatesOf(homePath, LANGUAGE_CODES),
  };
}
