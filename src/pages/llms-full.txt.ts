import type { APIRoute } from 'astro';
import { DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { documentResponse } from '../server/discovery/document-response.ts';
import { llmsFullTxt, llmsTxt } from '../server/discovery/llms.ts';
import { DOCUMENT_PATHS } from '../server/http/site-paths.ts';
import { publishedAtBuild, siteFacts } from '../site/published.ts';
import { articleMeta } from '../site/format.ts';
import { articleTwin } from '../site/markdown-twins.ts';

export const prerender = true;

export const GET: APIRoute = async () => {
  const articles = await publishedAtBuild(DEFAULT_LANGUAGE);
  const twins = articles.map(({ title, date, readingTime, content }) =>
    articleTwin(title, articleMeta(date, readingTime, DEFAULT_LANGUAGE), content),
  );
  return documentResponse(DOCUMENT_PATHS.llmsFull, llmsFullTxt(llmsTxt(await siteFacts(), articles), twins));
};
