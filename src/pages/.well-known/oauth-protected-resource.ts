import type { APIRoute } from 'astro';
import { siteFacts } from '../../site/published.ts';
import { jsonDocument } from '../../server/discovery/document-response.ts';
import { protectedResourceMetadata } from '../../server/discovery/oauth-metadata.ts';
import { DOCUMENT_PATHS } from '../../server/http/site-paths.ts';

export const prerender = true;

export const GET: APIRoute = async () => jsonDocument(DOCUMENT_PATHS.protectedResource, protectedResourceMetadata(await siteFacts()));
