import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { articleBody } from '../../../server/articles/kept-beside-store.ts';
import { readingTime } from '../../../server/articles/reading-time.ts';
import { threadTwinLink } from '../../../site/thread-twin.ts';
import { articleStaticPaths } from '../../../site/content.ts';
import { articleMeta } from '../../../site/format.ts';
import { articleTwin } from '../../../site/markdown-twins.ts';
import { markdown } from '../../../site/markdown-response.ts';
import { outdatedNotice } from '../../../site/translation-notice.ts';

export const prerender = true;
export const getStaticPaths = articleStaticPaths satisfies GetStaticPaths;

export const GET: APIRoute<InferGetStaticPropsType<typeof getStaticPaths>> = async ({ props: { entry, slug, lang } }) => {
  const body = articleBody(entry);
  return markdown(
    articleTwin(
      entry.data.title,
      articleMeta(entry.data.date, readingTime(body, lang), lang),
      body,
      await outdatedNotice(slug, lang),
      threadTwinLink(slug, lang),
    ),
  );
};
