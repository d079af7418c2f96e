import type { APIRoute } from 'astro';
import { DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { documentResponse } from '../server/discovery/document-response.ts';
import { llmsTxt } from '../server/discovery/llms.ts';
import { DOCUMENT_PATHS } from '../server/http/site-paths.ts';
import { publishedToday, siteFacts } from '../site/published.ts';

// Rendered on demand and kept by the front server for a minute (Cache-Control): a scheduled article joins on its date.
export const prerender = false;

export const GET: APIRoute = async () =>
  documentResponse(DOCUMENT_PATHS.llms, llmsTxt(await siteFacts(), await publishedToday(DEFAULT_LANGUAGE)));
