import type { APIRoute, InferGetStaticPropsType } from 'astro';
import { siteUrl } from '../../server/settings/environment.ts';
import { documentResponse } from '../../server/discovery/document-response.ts';
import { rssPath } from '../../server/http/site-paths.ts';
import { publishedAtBuild } from '../../site/published.ts';
import { rssFeed } from '../../server/discovery/rss.ts';
import { pageEntry, languageStaticPaths } from '../../site/content.ts';
import { homePath } from '../../server/http/site-paths.ts';

// Built once, like every file: a feed lists what is published on the day of
// the build, and a future-dated article joins it with the first build on or
// after its date, never before.
export const prerender = true;

export const getStaticPaths = languageStaticPaths;

export const GET: APIRoute<InferGetStaticPropsType<typeof getStaticPaths>> = async ({ props: { lang } }) => {
  const site = siteUrl();
  const home = await pageEntry('home', lang);
  const feed = rssFeed({
    title: home.data.title,
    description: home.data.description,
    lang,
    homeUrl: `${site}${homePath(lang)}`,
    feedUrl: `${site}${rssPath(lang)}`,
    items: await publishedAtBuild(lang),
  });
  return documentResponse(rssPath(lang), feed);
};
