import { DEFAULT_LANGUAGE, type LanguageCode } from '../i18n/languages.ts';
import { uiStrings } from '../i18n/ui.ts';
import { articlePath } from '../server/articles/catalog.ts';
import { articleCatalog } from '../server/articles/content-collection.ts';
import { setting } from '../server/settings/environment.ts';

/** What an outdated translation says above its text: the English original changed since, and where to read it. */
export interface OutdatedNotice {
  text: string;
  linkText: string;
  /** The English original's path, for the page's link. */
  path: string;
  /** The English original's absolute URL, for the Markdown twin, whose links are all absolute. */
  url: string;
}

/** The notice of the `lang` page of an article, or null when that page is not an outdated translation. */
export async function outdatedNotice(slug: string, lang: LanguageCode): Promise<OutdatedNotice | null> {
  if (!(await articleCatalog()).isOutdated(slug, lang)) return null;
  const t = uiStrings(lang);
  const path = articlePath(slug, DEFAULT_LANGUAGE);
  return { text: t('article.outdated'), linkText: t('article.outdatedLink'), path, url: `${setting('SITE_URL')}${path}` };
}
