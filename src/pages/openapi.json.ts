import type { APIRoute } from 'astro';
import { buildOpenApi } from '../server/api/openapi.ts';
import { siteName } from '../site/content.ts';
import { setting } from '../server/settings/environment.ts';
import { jsonDocument } from '../server/discovery/document-response.ts';
import { DOCUMENT_PATHS } from '../server/http/site-paths.ts';

export const prerender = true;

export const GET: APIRoute = async () => jsonDocument(DOCUMENT_PATHS.openapi, buildOpenApi(setting('SITE_URL'), await siteName()));
