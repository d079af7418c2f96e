import type { APIRoute } from 'astro';
import { setting } from '../server/settings/environment.ts';
import { documentResponse } from '../server/discovery/document-response.ts';
import { DOCUMENT_PATHS } from '../server/http/site-paths.ts';
import { robotsTxt } from '../server/discovery/robots.ts';

export const prerender = true;

export const GET: APIRoute = () => documentResponse(DOCUMENT_PATHS.robots, robotsTxt(setting('SITE_URL')));
