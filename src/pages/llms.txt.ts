import type { APIRoute } from 'astro';
import { DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { documentResponse } from '../server/discovery/document-response.ts';
import { llmsTxt } from '../server/discovery/llms.ts';
import { DOCUMENT_PATHS } from '../server/http/site-paths.ts';
import { publishedAtBuild, siteFacts } from '../site/published.ts';

export const prerender = true;

export const GET: APIRoute = async () =>
  documentResponse(DOCUMENT_PATHS.llms, llmsTxt(await siteFacts(), await publishedAtBuild(DEFAULT_LANGUAGE)));
