import type { APIRoute } from 'astro';
import { setting } from '../../server/settings/environment.ts';
import { jsonDocument } from '../../server/discovery/document-response.ts';
import { authorizationServerMetadata } from '../../server/discovery/oauth-metadata.ts';
import { DOCUMENT_PATHS } from '../../server/http/site-paths.ts';

export const prerender = true;

export const GET: APIRoute = () => jsonDocument(DOCUMENT_PATHS.authorizationServer, authorizationServerMetadata(setting('SITE_URL')));
