import { CACHE_CONTROL } from '../server/http/cache-rules.ts';

/** A Markdown twin as an HTTP response. */
export function markdown(text: string): Response {
  return new Response(text, { headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': CACHE_CONTROL.page } });
}
