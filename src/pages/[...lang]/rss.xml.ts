import type { APIRoute, InferGetStaticPropsType } from 'astro';
import { siteUrl } from '../../server/config.ts';
import { documentResponse } from '../../server/discovery/document-response.ts';
import { rssPath } from '../../server/discovery/paths.ts';
import { publishedAtBuild } from '../../server/discovery/published.ts';
import { rssFeed } from '../../server/discovery/rss.ts';
import { pageEntry } from '../../site/content.ts';
import { homePath, languageStaticPaths } from '../../site/paths.ts';

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
