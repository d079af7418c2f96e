import type { IncomingMessage } from 'node:http';

/**
 * Node's requests as the rest of the server reads them: one place for the
 * request's path and URL, the method a HEAD is served by, a request body read
 * under a cap, and the web `Request`s handed to Astro, MCP and the moderation
 * pages.
 */

/** The path of a request target, without its query, as Node gives it. */
export function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** Request targets whose parsed URLs are kept at most: past them, the kept ones are forgotten at once. */
const KEPT_URLS = 1024;
/** Targets longer than this are parsed each time, never kept. */
const KEPT_TARGET_LENGTH = 256;

/**
 * The requests' URLs on the site's origin; `//host/x` stays a path here,
 * never another host. A target asked again (a busy page, an API read) gets
 * the URL parsed the first time, its `searchParams` included: parsing and
 * building them cost more than the rest of a small read. The URL is shared,
 * so no one changes it: a route wanting another URL makes its own.
 */
export function requestUrls(site: string): (req: IncomingMessage) => URL {
  const kept = new Map<string, URL>();
  return (req) => {
    const target = req.url ?? '/';
    let url = kept.get(target);
    if (url === undefined) {
      url = new URL(target.startsWith('/') ? `${site}${target}` : `${site}/`);
      if (target.length <= KEPT_TARGET_LENGTH) {
        if (kept.size >= KEPT_URLS) kept.clear();
        kept.set(target, url);
      }
    }
    return url;
  };
}

/** The method that serves a request: a HEAD is answered as its GET, without the body. */
export function servedMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

/** Request headers that would make a response one caller's; a shared one must not see them. */
export const CONDITIONAL_HEADERS = new Set(['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since']);

/** A body read under a cap. */
export interface CappedBody {
  /** At most one byte past the cap: enough to know it is too large, never more in memory. */
  bytes: Uint8Array;
  /**
   * Whether its `Content-Length` or its bytes pass the cap: the one decision
   * of a 413. The rest of such a body is left unread, so the connection
   * cannot carry another request and its answer closes it.
   */
  tooLarge: boolean;
}

const NO_BODY = new Uint8Array(0);

/** An empty body, within any cap. */
export const EMPTY_BODY: CappedBody = { bytes: NO_BODY, tooLarge: false };

/**
 * Reads a body as it streams in (a Node request, or a web request's body),
 * up to one byte past `cap`. A body declared larger is not read at all. Past
 * the cap the source is left as it is, neither read on nor destroyed, so
 * that a refusal can still be written to its connection.
 */
export async function readCapped(
  source: AsyncIterable<Uint8Array> | null,
  declaredLength: string | null | undefined,
  cap: number,
): Promise<CappedBody> {
  if (Number(declaredLength ?? 0) > cap) return { bytes: NO_BODY, tooLarge: true };
  if (!source) return EMPTY_BODY;
  // Stepped by hand: leaving a `for await` would destroy a Node request, and its socket with it.
  const chunks = source[Symbol.asyncIterator]();
  const read: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const step = await chunks.next();
    if (step.done === true) return { bytes: read.length === 1 ? (read[0] ?? NO_BODY) : Buffer.concat(read), tooLarge: false };
    read.push(step.value);
    size += step.value.byteLength;
    if (size > cap) return { bytes: Buffer.concat(read).subarray(0, cap + 1), tooLarge: true };
  }
}

/** A request's headers as a web request carries them; `shared` leaves out those that would make its answer one caller's. */
function headersOf(req: IncomingMessage, shared: boolean): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || (shared && CONDITIONAL_HEADERS.has(name))) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** A page request for Astro: a GET (HEAD is asked as GET), without the headers that would make its render one caller's. */
export function pageRequest(req: IncomingMessage, url: URL): Request {
  return new Request(url, { method: 'GET', headers: headersOf(req, true) });
}

/** A request handed over as a web request, every header as sent, with `body` for a method that has one. */
export function webRequest(req: IncomingMessage, url: URL, body?: Uint8Array): Request {
  const method = req.method ?? 'GET';
  return new Request(url, {
    method,
    headers: headersOf(req, false),
    ...(body && method !== 'GET' && method !== 'HEAD' ? { body: body.slice() } : {}),
  });
}
