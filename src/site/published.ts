import { DEFAULT_LANGUAGE, type LanguageCode } from '../i18n/languages.ts';
import { todayUtc, type Article } from '../server/articles/catalog.ts';
import { articleCatalog } from '../server/articles/content-collection.ts';
import type { SiteFacts } from '../server/discovery/site-facts.ts';
import { siteUrl } from '../server/settings/environment.ts';
import { pageEntry } from './content.ts';

/** The site's name and one-line summary, from the English home page (content/pages/home/en.md). */
export async function siteFacts(): Promise<SiteFacts> {
  const home = await pageEntry('home', DEFAULT_LANGUAGE);
  return { site: siteUrl(), name: home.data.title, summary: home.data.description };
}

/**
 * The articles published on the day of the build, in `lang`, newest first.
 * Documents built from them are files, fixed until the next build: an
 * article dated after the build joins them with the first build on or after
 * its date, so it never appears in them early.
 */
export async function publishedAtBuild(lang: LanguageCode): Promise<readonly Article[]> {
  return (await articleCatalog()).on(todayUtc()).list(lang);
}
