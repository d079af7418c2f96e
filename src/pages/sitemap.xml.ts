import type { APIRoute } from 'astro';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../i18n/languages.ts';
import { articlePath } from '../server/articles/catalog.ts';
import { articleCatalog } from '../server/articles/content-collection.ts';
import { siteUrl } from '../server/settings/environment.ts';
import { documentResponse } from '../server/discovery/document-response.ts';
import { DOCUMENT_PATHS } from '../server/http/site-paths.ts';
import { publishedToday } from '../site/published.ts';
import { sitemapXml, translatedPages } from '../server/discovery/sitemap.ts';
import { answersPath, citiesPath, homePath, projectsPath, searchPath } from '../server/http/site-paths.ts';

// Rendered on demand and kept by the front server for a minute (Cache-Control): a scheduled article joins on its date.
export const prerender = false;

/** Pages written in English only. */
const ENGLISH_PAGES = [DOCUMENT_PATHS.developers];

export const GET: APIRoute = async () => {
  const site = siteUrl();
  const catalog = await articleCatalog();
  const pages = [
    ...[homePath, citiesPath, projectsPath, answersPath, searchPath].flatMap((pathFor) => translatedPages(site, pathFor, LANGUAGE_CODES)),
    ...(await publishedToday(DEFAULT_LANGUAGE)).flatMap(({ slug, date }) =>
      translatedPages(site, (lang) => articlePath(slug, lang), catalog.languagesOf(slug), date),
    ),
    ...ENGLISH_PAGES.flatMap((path) => translatedPages(site, () => path, [DEFAULT_LANGUAGE])),
  ];
  return documentResponse(DOCUMENT_PATHS.sitemap, sitemapXml(pages));
};
