import type { APIRoute } from 'astro';
import { isLanguageCode } from '../../i18n/languages.ts';
import { documentResponse } from '../../server/discovery/document-response.ts';
import { languageLlmsTxt } from '../../server/discovery/llms.ts';
import { DOCUMENT_PATHS } from '../../server/http/site-paths.ts';
import { publishedToday, siteFacts } from '../../site/published.ts';

// Rendered on demand and kept by the front server for a minute (Cache-Control), as /llms.txt: a scheduled article joins on its date.
export const prerender = false;

export const GET: APIRoute = async ({ params }) => {
  const { lang } = params;
  if (!isLanguageCode(lang)) return new Response('Not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return documentResponse(DOCUMENT_PATHS.llms, languageLlmsTxt(await siteFacts(), lang, await publishedToday(lang)));
};
