import type { APIRoute } from 'astro';
import { languageFromParam } from '../../i18n/languages.ts';
import { setting } from '../../server/settings/environment.ts';
import { documentResponse } from '../../server/discovery/document-response.ts';
import { rssPath } from '../../server/http/site-paths.ts';
import { publishedToday } from '../../site/published.ts';
import { rssFeed } from '../../server/discovery/rss.ts';
import { pageText } from '../../site/content.ts';
import { homePath } from '../../server/http/site-paths.ts';
import { FEED_LATEST } from '../../server/articles/lists.ts';

// Rendered on demand and kept by the front server for a minute (Cache-Control): a scheduled article joins on its date.
export const prerender = false;

export const GET: APIRoute = async ({ params }) => {
  const lang = languageFromParam(params['lang']);
  if (lang === null) return new Response('Not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const site = setting('SITE_URL');
  const home = await pageText('home', lang);
  const feed = rssFeed({
    title: home.title,
    description: home.description,
    lang,
    homeUrl: `${site}${homePath(lang)}`,
    feedUrl: `${site}${rssPath(lang)}`,
    // The latest only: a feed reader polls it often, and the archive holds the rest.
    items: (await publishedToday(lang)).slice(0, FEED_LATEST),
  });
  return documentResponse(rssPath(lang), feed);
};
