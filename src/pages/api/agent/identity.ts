import type { APIRoute } from 'astro';
import { siteUrl } from '../../../server/config.ts';
import { agentIdentity } from '../../../server/discovery/identity.ts';
import { methodNotAllowed } from '../../../server/http/api-frame.ts';
import { CACHE_CONTROL } from '../../../server/http/cache-rules.ts';
import { cacheableJson } from '../../../server/http/json.ts';

export const prerender = false;

export const GET: APIRoute = ({ request }) => cacheableJson(request, agentIdentity(siteUrl()), CACHE_CONTROL.identity);

export const ALL = methodNotAllowed(['GET', 'HEAD']);
