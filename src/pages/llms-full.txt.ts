import type { APIRoute } from 'astro';
import { DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { documentResponse } from '../server/discovery/document-response.ts';
import { llmsFullTxt, llmsTxt } from '../server/discovery/llms.ts';
import { DOCUMENT_PATHS } from '../server/http/site-paths.ts';
import { publishedView, siteFacts } from '../site/published.ts';
import { articleMeta } from '../site/format.ts';
import { articleTwin } from '../site/markdown-twins.ts';
import { threadTwinLink } from '../site/thread-twin.ts';

// Rendered on demand and kept by the front server for a minute (Cache-Control): a scheduled article joins on its date.
export const prerender = false;

export const GET: APIRoute = async () => {
  const view = await publishedView();
  const articles = view.list(DEFAULT_LANGUAGE);
  const twins: string[] = [];
  for (const { slug } of articles) {
    const article = await view.read(slug, DEFAULT_LANGUAGE);
    if (!article) continue;
    const { title, date, readingTime, content } = article;
    twins.push(articleTwin(title, articleMeta(date, readingTime, DEFAULT_LANGUAGE), content, null, threadTwinLink(slug, DEFAULT_LANGUAGE)));
  }
  return documentResponse(DOCUMENT_PATHS.llmsFull, llmsFullTxt(llmsTxt(await siteFacts(), articles), twins));
};
