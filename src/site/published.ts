import { DEFAULT_LANGUAGE, type LanguageCode } from '../i18n/languages.ts';
import { todayUtc, type ArticleItem, type PublishedView } from '../server/articles/catalog.ts';
import { articleCatalog } from '../server/articles/content-collection.ts';
import type { SiteFacts } from '../server/discovery/site-facts.ts';
import { TOOLS } from '../server/mcp/tools.ts';
import { setting } from '../server/settings/environment.ts';
import { pageText, siteName } from './content.ts';

/** The site's name and one-line summary, from the English home page (content/pages/home/en.md). */
export async function siteFacts(): Promise<SiteFacts> {
  const { description } = await pageText('home', DEFAULT_LANGUAGE);
  return { site: setting('SITE_URL'), name: await siteName(), summary: description, mcpTools: TOOLS.map(({ name }) => name) };
}

/**
 * The articles published today (UTC), in `lang`, newest first: the
 * documents built from them are rendered on demand and kept for a minute,
 * so a scheduled article joins them on its date, without a rebuild.
 */
export async function publishedToday(lang: LanguageCode): Promise<readonly ArticleItem[]> {
  return (await publishedView()).list(lang);
}

/** What is published today (UTC), for a document that reads the articles' bodies too. */
export async function publishedView(): Promise<PublishedView> {
  return (await articleCatalog()).on(todayUtc());
}
