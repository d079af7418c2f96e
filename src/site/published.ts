import { DEFAULT_LANGUAGE, type LanguageCode } from '../i18n/languages.ts';
import { todayUtc, type Article } from '../server/articles/catalog.ts';
import { articleCatalog } from '../server/articles/content-collection.ts';
import type { SiteFacts } from '../server/discovery/site-facts.ts';
import { TOOLS } from '../server/mcp/tools.ts';
import { siteUrl } from '../server/settings/environment.ts';
import { pageEntry } from './content.ts';

/** The site's name and one-line summary, from the English home page (content/pages/home/en.md). */
export async function siteFacts(): Promise<SiteFacts> {
  const home = await pageEntry('home', DEFAULT_LANGUAGE);
  return { site: siteUrl(), name: home.data.title, summary: home.data.description, mcpTools: TOOLS.map(({ name }) => name) };
}

/**
 * The articles published today (UTC), in `lang`, newest first: the
 * documents built from them are rendered on demand and kept for a minute,
 * so a scheduled article joins them on its date, without a rebuild.
 */
export async function publishedToday(lang: LanguageCode): Promise<readonly Article[]> {
  return (await articleCatalog()).on(todayUtc()).list(lang);
}
