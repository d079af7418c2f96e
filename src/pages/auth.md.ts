import type { APIRoute } from 'astro';
import { authMd } from '../server/discovery/auth.ts';
import { siteFacts } from '../site/published.ts';
import { markdown } from '../site/markdown-response.ts';

export const prerender = true;

export const GET: APIRoute = async () => markdown(authMd(await siteFacts()));
