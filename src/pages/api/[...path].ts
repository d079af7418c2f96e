import type { APIRoute } from 'astro';
import { siteUrl } from '../../server/config.ts';
import { unknownApiPath } from '../../server/http/errors.ts';

export const prerender = false;

/** Every `/api` path no operation serves, whatever the method. */
export const ALL: APIRoute = ({ url }) => unknownApiPath(siteUrl(), url.pathname);
