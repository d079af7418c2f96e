import type { APIRoute } from 'astro';
import { builtContentFiles } from '../site/content.ts';

// Moved out of the served files by the build (scripts/build-site.ts): the running site reads it (src/server/articles/built-content.ts).
export const prerender = true;

export const GET: APIRoute = async () =>
  new Response((await builtContentFiles()).index, { headers: { 'Content-Type': 'application/jsonl' } });
