import type { APIRoute } from 'astro';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../i18n/languages.ts';
import { articlePath } from '../server/articles/catalog.ts';
import { articleCatalog } from '../server/articles/content-collection.ts';
import { siteUrl } from '../server/settings/environment.ts';
import { documentResponse } from '../server/discovery/document-response.ts';
import { DOCUMENT_PATHS } from '../server/http/site-paths.ts';
import { publishedAtBuild } from '../site/published.ts';
import { sitemapXml, translatedPages } from '../server/discovery/sitemap.ts';
import { citiesPath, homePath, projectsPath } from '../server/http/site-paths.ts';

export const prerender = true;

/** Pages written in English only. */
const ENGLISH_PAGES = [DOCUMENT_PATHS.developers, '/answers'];

export const GET: APIRoute = async () => {
  const site = siteUrl();
  const catalog = await articleCatalog();
  const pages = [
    ...[homePath, citiesPath, projectsPath].flatMap((pathFor) => translatedPages(site, pathFor, LANGUAGE_CODES)),
    ...(await publishedAtBuild(DEFAULT_LANGUAGE)).flatMap(({ slug, date }) =>
      translatedPages(site, (lang) => articlePath(slug, lang), catalog.languagesOf(slug), date),
    ),
    ...ENGLISH_PAGES.flatMap((path) => translatedPages(site, () => path, [DEFAULT_LANGUAGE])),
  ];
  return documentResponse(DOCUMENT_PATHS.sitemap, sitemapXml(pages));
};
