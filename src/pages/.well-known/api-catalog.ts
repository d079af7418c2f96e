import type { APIRoute } from 'astro';
import { setting } from '../../server/settings/environment.ts';
import { apiCatalog } from '../../server/discovery/linkset.ts';
import { jsonDocument } from '../../server/discovery/document-response.ts';
import { DOCUMENT_PATHS } from '../../server/http/site-paths.ts';

export const prerender = true;

export const GET: APIRoute = () => jsonDocument(DOCUMENT_PATHS.apiCatalog, apiCatalog(setting('SITE_URL')));
