import type { APIRoute } from 'astro';
import { builtContentFiles } from '../site/content.ts';

// Moved out of the served files by the build (scripts/build-site.ts): the running site reads it (src/server/articles/built-content.ts).
export const prerender = true;

export const GET: APIRoute = async () =>
  new Response(new Uint8Array((await builtContentFiles()).bodies), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
