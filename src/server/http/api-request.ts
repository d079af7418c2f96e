import { readCapped, servedMethod, type CappedBody } from './node-web.ts';
import { MAX_BODY_BYTES } from './write-guards.ts';

/**
 * What an API operation reads of its request. The front server makes one
 * straight from Node's request, without a web Request, its Headers or a body
 * stream, which cost more than a small read itself; the Astro route (under
 * `astro dev`) makes one from the web Request.
 */
export interface ApiRequest {
  /** HEAD is asked as GET: the server leaves the body out. */
  readonly method: string;
  /** On the site's origin. */
  readonly url: URL;
  /** A header's value, by its name in any case; null when absent. */
  header(name: string): string | null;
  /** The body, read under the API's cap (MAX_BODY_BYTES). */
  body(): Promise<CappedBody>;
}

/** The API request of a web Request. */
export function apiRequestOf(request: Request): ApiRequest {
  return {
    method: servedMethod(request.method),
    url: new URL(request.url),
    header: (name) => request.headers.get(name),
    body: () => readCapped(request.body, request.headers.get('Content-Length'), MAX_BODY_BYTES),
  };
}
