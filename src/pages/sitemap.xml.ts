import type { APIRoute } from 'astro';
import { documentResponse } from '../server/discovery/document-response.ts';
import { sitemapIndexXml, sitemapXml } from '../server/discovery/sitemap.ts';
import { DOCUMENT_PATHS } from '../server/http/site-paths.ts';
import { sitemaps } from '../site/sitemap.ts';

// Rendered on demand and kept by the front server for a minute (Cache-Control): a scheduled article joins on its date.
export const prerender = false;

/** The sitemap, or the index of the sitemaps once the site has outgrown one (robots.txt names this address either way). */
export const GET: APIRoute = async () => {
  const parts = await sitemaps();
  const only = parts.length === 1 ? parts[0] : undefined;
  return documentResponse(DOCUMENT_PATHS.sitemap, only ? sitemapXml(only.pages) : sitemapIndexXml(parts));
};
