import type { APIRoute } from 'astro';
import { documentResponse } from '../../server/discovery/document-response.ts';
import { sitemapXml } from '../../server/discovery/sitemap.ts';
import { DOCUMENT_PATHS } from '../../server/http/site-paths.ts';
import { sitemaps } from '../../site/sitemap.ts';

// Rendered on demand and kept by the front server for a minute, as /sitemap.xml that lists them.
export const prerender = false;

/** One sitemap of the index at /sitemap.xml; 404 while one sitemap holds every page, and past the last. */
export const GET: APIRoute = async ({ params }) => {
  const number = params['part'] ?? '';
  // A shape no sitemap has is refused before today's sitemaps are looked at.
  const part = /^[1-9]\d{0,5}$/.test(number) ? (await sitemaps())[Number(number) - 1] : undefined;
  if (!part || part.path === DOCUMENT_PATHS.sitemap)
    return new Response('Not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return documentResponse(part.path, sitemapXml(part.pages));
};
