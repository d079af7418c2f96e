import type { IncomingMessage } from 'node:http';
import { CONDITIONAL_HEADERS, readCapped, servedMethod, type CappedBody } from '../http/node-web.ts';
import { MAX_BODY_BYTES } from './write-guards.ts';

/**
 * What an API operation reads of its request. The front server makes one
 * straight from Node's request, with the body already read under the cap; the
 * Astro route (under `astro dev`) makes one from the web Request.
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

/**
 * An API request straight from Node's: headers read where Node keeps them
 * (lower-case names, repeated ones joined), the body already read.
 * `readsShared` leaves out the headers that would make a shared response one caller's.
 */
export function apiRequest(req: IncomingMessage, url: URL, body: CappedBody, readsShared: boolean): ApiRequest {
  return {
    method: servedMethod(req.method ?? 'GET'),
    url,
    header(name) {
      const key = name.toLowerCase();
      if (readsShared && CONDITIONAL_HEADERS.has(key)) return null;
      const value = req.headers[key];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    body: () => Promise.resolve(body),
  };
}
