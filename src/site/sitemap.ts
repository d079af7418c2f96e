import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../i18n/languages.ts';
import { articlePath, todayUtc } from '../server/articles/catalog.ts';
import { articleCatalog } from '../server/articles/content-collection.ts';
import { splitSitemap, translatedPages, type SitemapPage } from '../server/discovery/sitemap.ts';
import {
  answersPath,
  archivePath,
  citiesPath,
  DOCUMENT_PATHS,
  homePath,
  projectsPath,
  searchPath,
  sitemapPartPath,
} from '../server/http/site-paths.ts';
import { setting } from '../server/settings/environment.ts';
import { archivePageCount } from './archive.ts';
import { publishedToday } from './published.ts';

/** Pages written in English only. */
const ENGLISH_PAGES = [DOCUMENT_PATHS.developers];

/** Every page of the site today, each translation with its hreflang alternates. */
async function sitemapPages(): Promise<SitemapPage[]> {
  const site = setting('SITE_URL');
  const catalog = await articleCatalog();
  const archivePages = Array.from({ length: await archivePageCount() }, (_, index) => index + 1);
  return [
    ...[homePath, citiesPath, projectsPath, answersPath, searchPath].flatMap((pathFor) => translatedPages(site, pathFor, LANGUAGE_CODES)),
    ...archivePages.flatMap((number) => translatedPages(site, (lang) => archivePath(lang, number), LANGUAGE_CODES)),
    ...(await publishedToday(DEFAULT_LANGUAGE)).flatMap(({ slug, date }) =>
      translatedPages(site, (lang) => articlePath(slug, lang), catalog.languagesOf(slug), date),
    ),
    ...ENGLISH_PAGES.flatMap((path) => translatedPages(site, () => path, [DEFAULT_LANGUAGE])),
  ];
}

/** Today's sitemaps, worked out once a day: a request for any of them, or for one that does not exist, costs no more. */
let cached: { today: string; sitemaps: Sitemap[] } | undefined;

interface Sitemap {
  url: string;
  path: string;
  pages: SitemapPage[];
}

/**
 * Today's sitemaps, each within the protocol's limits, with the URL each is
 * served at: `/sitemap.xml` when one holds every page, else
 * `/sitemaps/1.xml`… listed by the index at `/sitemap.xml`. Rendered on demand
 * and kept a minute, as the pages they list follow the date.
 */
export async function sitemaps(): Promise<Sitemap[]> {
  const today = todayUtc();
  if (cached?.today === today) return cached.sitemaps;
  const parts = splitSitemap(await sitemapPages());
  const site = setting('SITE_URL');
  const made = parts.map((pages, index) => {
    const path = parts.length === 1 ? DOCUMENT_PATHS.sitemap : sitemapPartPath(index + 1);
    return { url: `${site}${path}`, path, pages };
  });
  cached = { today, sitemaps: made };
  return made;
}
