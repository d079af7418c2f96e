import { mediaTypeOf } from '../http/media-types.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';

/**
 * A prerendered document, with the headers the front server gives its built
 * file (a type by its name, cached like a page), so that `astro dev` answers alike.
 */
export function documentResponse(path: string, body: string): Response {
  return new Response(body, { headers: { 'Content-Type': mediaTypeOf(path), 'Cache-Control': CACHE_CONTROL.page } });
}

/** A prerendered JSON document, indented for people who read it. */
export function jsonDocument(path: string, value: unknown): Response {
  return documentResponse(path, `${JSON.stringify(value, null, 2)}\n`);
}
