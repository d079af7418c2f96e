import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { todayUtc } from '../articles/catalog.ts';
import { isApiPath } from '../http/api-frame.ts';
import { setApiHeaders } from '../http/api-headers.ts';
import { sharedMaxAge } from '../http/cache-rules.ts';
import { MAX_BODY_BYTES } from '../http/write-guards.ts';
import type { ApiResponse } from '../http/api-response.ts';
import type { ApiRequest } from '../http/api-request.ts';
import { serverError } from '../http/errors.ts';
import { etagOf } from '../http/etag.ts';
import { prefersMarkdown, twinPath } from '../http/negotiation.ts';
import {
  DOCUMENT_PATHS,
  isThreadFragment,
  MODERATION_PATH_PREFIX,
  pageLinkHeader,
  pageQueryParameters,
  threadFragmentOfPage,
  withoutTrailingSlashes,
} from '../http/site-paths.ts';
import { log } from '../observability/log.ts';
import { cacheWatched } from '../observability/counters.ts';
import { requestServed, servedRecord, type Served } from '../observability/requests.ts';
import { setting } from '../settings/environment.ts';
import { ResponseCache, type Revision } from './response-cache.ts';
import { languageOfPath, takeNotFoundPages } from './not-found.ts';
import { notBeforeDates, type ScheduledArticle } from './schedule.ts';
import { SeenOnce } from './seen-once.ts';
import { StaticFiles, type StaticFile } from './static-files.ts';
import { sendStatic, sendStored, type StoredResponse } from './stored-response.ts';
import { pageWithThread } from './thread-splice.ts';

/**
 * How long a "page not found" response is kept for its address. Articles that
 * appear on their date are built files, looked up before this cache.
 */
const NOT_FOUND_SECONDS = 60;

/** What kept renders may hold, their compressed copies counted: room for the pages of many busy threads. */
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/** Missing addresses whose not-found page is kept, apart from the renders, so that a crawler's misses push no render out. */
const MISSING_ENTRIES = 1000;

/** The part of Astro's App the front server uses. */
export interface AstroApp {
  match(request: Request): unknown;
  render(request: Request, options: { routeData?: never; clientAddress?: string }): Promise<Response>;
}

/** Answers an `/api` request, framed (the registry's dispatcher, src/server/api/dispatch.ts). */
type ApiDispatcher = (request: ApiRequest, socketAddress: string, connection: object) => Promise<ApiResponse>;

export interface FrontServerOptions {
  app: AstroApp;
  /** Every `/api` request goes here, without Astro's render, which is most of a write's cost. */
  api: ApiDispatcher;
  clientDir: string;
  /** Every article's date, published or scheduled: its prerendered pages respond 404 before it. None when omitted. */
  schedule?: readonly ScheduledArticle[];
  /** The site's own origin: the base of every request URL handed to Astro. */
  site: string;
  cacheEntries?: number;
  /** Bytes of kept responses at most (every encoding counted). */
  cacheBytes?: number;
  /** Bytes of built files' bodies held in memory at most (STATIC_CACHE_MIB). */
  fileCacheBytes?: number;
  today?: () => string;
  /** The store's current revision of a topic: a render kept under an older one is rendered again. */
  revisionOf?: (topic: string) => Promise<string>;
  /** Headers every response carries (src/server/http/security-headers.ts). */
  headers?: Readonly<Record<string, string>>;
  /** The query parameters the API's read at this path takes (its operation's query schema), sorted: the rest are dropped before it. */
  apiQueryParameters?: (pathname: string) => readonly string[];
  /**
   * Answers by exact path, asked before anything else (the health endpoints,
   * src/server/operations/health.ts): no page, file or API route can shadow
   * them, and they cost no URL parsing. Any query string is ignored.
   */
  probes?: ReadonlyMap<string, () => Promise<Probed>>;
  /**
   * What a form asks for when it is shown (its stamp, the captcha's
   * challenge: src/server/spam/form-responses.ts), by exact path, answered as
   * the probes are: JSON, `no-store`, GET and HEAD only.
   */
  formResponses?: ReadonlyMap<string, () => Promise<Probed>>;
  /** The id of the API operation serving a method and path (the registry's), for logs and metrics; none for a path no operation serves. */
  operationOf?: (method: string, pathname: string) => string | undefined;
  /**
   * Answers every request to `/mcp` and its server card, the MCP server
   * (src/server/mcp/endpoint.ts): a body read as the API's is, the caller
   * named as the API's is.
   */
  mcp?: (request: Request, caller: { socketAddress: string; connection: object }) => Promise<Response>;
  /** Answers every request under `/moderation/`, the pages of the owner's signed links (src/server/moderation/pages.ts), GET and POST. */
  moderation?: (request: Request) => Promise<Response>;
}

/** A probe's response: always JSON, never kept by anyone. */
interface Probed {
  status: number;
  body: string;
}

/** The path of a request target, without its query, as Node gives it. */
function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** A probe's response: JSON, `no-store`, GET and HEAD only. Returns the body's bytes sent. */
async function sendProbe(
  req: IncomingMessage,
  res: ServerResponse,
  probe: () => Promise<Probed>,
  baseList: readonly string[],
): Promise<number> {
  const headers = [...baseList, 'cache-control', 'no-store'];
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, [...headers, 'allow', 'GET, HEAD', 'content-length', '0']);
    res.end();
    return 0;
  }
  const { status, body } = await probe();
  res.writeHead(status, [...headers, 'content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(body))]);
  return sentBody(req, res, body);
}

/** Ends a response with `body`, none for HEAD; returns the body's bytes sent. */
function sentBody(req: IncomingMessage, res: ServerResponse, body: string | Buffer): number {
  if (req.method === 'HEAD') {
    res.end();
    return 0;
  }
  res.end(body);
  return typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}

/**
 * The URL a shared response is keyed by and made from: only the query
 * parameters its maker reads (`parameters`, sorted), in that order, the
 * first value of each. A made-up parameter, a repeated one or another order
 * is then the same response. A URL already in that form is kept as it is.
 */
function keptUrl(url: URL, parameters: readonly string[]): URL {
  if (url.search === '') return url;
  const asked = [...url.searchParams.keys()];
  if (asked.every((name, index) => parameters.includes(name) && (index === 0 || (asked[index - 1] ?? '') < name))) return url;
  const kept = new URL(url.pathname, url.origin);
  for (const name of parameters) {
    const value = url.searchParams.get(name);
    if (value !== null) kept.searchParams.set(name, value);
  }
  return kept;
}

/** The request's URL on the site's origin; `//host/x` stays a path here, never another host. */
function requestUrl(req: IncomingMessage, site: string): URL {
  return new URL(req.url?.startsWith('/') ? `${site}${req.url}` : `${site}/`);
}

/** Request headers that would make Astro respond for one caller only; a shared render must not see them. */
const CONDITIONAL_HEADERS = new Set(['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since']);

const NO_BODY = new Uint8Array(0);

/**
 * Reads a request body as it streams in, up to one byte past `cap` at most:
 * enough for the write guard to refuse an oversized body, never more in memory.
 * Past the cap the rest is left unread, and the response closes the connection.
 */
function readCapped(req: IncomingMessage, cap: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      req.off('data', onData).off('end', finish).off('error', reject);
      resolve(Buffer.concat(chunks).subarray(0, cap + 1));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > cap) {
        req.pause();
        finish();
      }
    };
    req.on('data', onData).on('end', finish).on('error', reject);
  });
}

/** A page request for Astro: a GET (HEAD is asked as GET), without the headers that would make its render one caller's. */
function toWebRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || CONDITIONAL_HEADERS.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(url, { method: 'GET', headers });
}

/**
 * An API request straight from Node's: headers read where Node keeps them
 * (lower-case names, repeated ones joined), the body already read.
 * `readsShared` leaves out the headers that would make a shared response one caller's.
 */
function toApiRequest(req: IncomingMessage, url: URL, body: Uint8Array, readsShared: boolean): ApiRequest {
  return {
    method: req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET'),
    url,
    header(name) {
      const key = name.toLowerCase();
      if (readsShared && CONDITIONAL_HEADERS.has(key)) return null;
      const value = req.headers[key];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    body: (limit) => Promise.resolve(body.subarray(0, limit + 1)),
  };
}

/** A request's headers as a web request carries them, every one as sent. */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return headers;
}

/** Headers every response of this server carries, given to each `writeHead` whole (see createFrontServer). */
type BaseHeaders = Readonly<Record<string, string>>;

/**
 * An API response, written as it is. Its headers go to `writeHead` as one flat
 * list (`[name, value, …]`, after `baseList`, the server's BaseHeaders as
 * such a list), which Node reads without the keyed lookups of an object built
 * per response. Neither form merges names: a name both the base and the response
 * set would be sent twice either way, and the API sets none of the base's.
 */
function sendApiResponse(req: IncomingMessage, res: ServerResponse, response: ApiResponse, baseList: readonly string[]): number {
  // Kept as text: Node then sends the head and a text body in one write.
  const body = response.body ?? '';
  const headers = [...baseList];
  for (const [name, value] of response.headers.entries()) headers.push(name, value);
  const length = Buffer.byteLength(body);
  headers.push('content-length', String(length));
  res.writeHead(response.status, headers);
  if (req.method === 'HEAD') {
    res.end();
    return 0;
  }
  res.end(body);
  return length;
}

async function sendResponse(req: IncomingMessage, res: ServerResponse, response: Response, base: BaseHeaders): Promise<number> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = { ...base };
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value;
  });
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 0) headers['set-cookie'] = setCookies;
  headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  return sentBody(req, res, body);
}

/**
 * The site's HTTP server. In front of Astro it answers, from memory: the
 * prerendered files (with precompressed bodies, ETags, and the Markdown twin
 * when `Accept` asks for it), and every on-demand response whose own
 * Cache-Control lets a shared cache keep it. `/api` requests go to the API
 * dispatcher; every other page to Astro.
 */
export async function createFrontServer(options: FrontServerOptions): Promise<Server> {
  const { app, site } = options;
  // Given to every writeHead whole, never set one by one: a header set before writeHead sends Node down its slow path,
  // which checks every header again.
  const base: BaseHeaders = options.headers ?? {};
  const baseList = Object.entries(base).flat();
  const today = options.today ?? (() => todayUtc());
  const files = await StaticFiles.open(options.clientDir, { cacheBytes: options.fileCacheBytes ?? setting('STATIC_CACHE_MIB') });
  const notBefore = notBeforeDates(options.schedule ?? []);
  const notFoundPages = await takeNotFoundPages(files);
  const cache = new ResponseCache({ maxEntries: options.cacheEntries ?? 2000, maxBytes: options.cacheBytes ?? DEFAULT_CACHE_BYTES });
  const missing = new ResponseCache({ maxEntries: MISSING_ENTRIES });
  // Article pages with their threads are kept from their second read, as built files are (hot-bodies.ts).
  const pagesSeenOnce = new SeenOnce();
  /**
   * Pages being put together with their thread, by key: readers who ask at
   * once, before the first is kept, share one render instead of each holding
   * a thread's page in memory at the same time.
   */
  const merging = new Map<string, Promise<StoredResponse | null>>();
  cacheWatched('renders', () => cache.stats());
  cacheWatched('not-found', () => missing.stats());
  cacheWatched('files', () => files.stats());
  const apiQueryParameters = options.apiQueryParameters ?? (() => []);
  const probes = options.probes ?? new Map<string, () => Promise<Probed>>();
  const formResponses = options.formResponses ?? new Map<string, () => Promise<Probed>>();

  function staticFile(pathname: string): StaticFile | undefined {
    const date = notBefore(pathname);
    return date !== undefined && date > today() ? undefined : files.get(pathname);
  }

  /**
   * Sends the built file at `pathname`, if there is one, and resolves with
   * the body's bytes sent; null when there is none, or it was removed from
   * disk since the build. A file changed on disk since the manifest was read
   * sends the server to the manifest again (a new build); one changed by
   * hand, which no manifest describes, is sent as it is now, uncompressed,
   * under the ETag of what it holds.
   */
  async function sendFile(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    varyAccept: (file: StaticFile) => boolean,
    pageHeaders: Record<string, string>,
  ): Promise<number | null> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const file = staticFile(pathname);
      if (!file) return null;
      const extraHeaders = file.isDocument ? pageHeaders : {};
      const sent = await sendStatic(req, res, files, file, { base, varyAccept: varyAccept(file), extraHeaders });
      if (sent === 'gone') return null;
      if (sent !== 'changed') return sent;
      await files.reload();
    }
    const file = staticFile(pathname);
    const identity = file && (await readFile(file.path).catch(() => undefined));
    if (!file || !identity) return null;
    const response = {
      status: 200,
      headers: { 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl },
      etag: etagOf(identity),
      bodies: { identity },
    };
    return sendStored(req, res, response, { base, varyAccept: varyAccept(file), extraHeaders: file.isDocument ? pageHeaders : {} });
  }

  /** Whether a kept render still shows the store as it is: always, for one kept by time. */
  async function isCurrent(revision: Revision | undefined): Promise<boolean> {
    return !revision || (options.revisionOf !== undefined && (await options.revisionOf(revision.topic)) === revision.token);
  }

  /** A page rendered by Astro, for every reader alike: the cache decides whether to keep it. */
  async function render(req: IncomingMessage, url: URL): Promise<Response> {
    const request = toWebRequest(req, url);
    return app.render(request, { routeData: app.match(request) as never, clientAddress: req.socket.remoteAddress ?? '' });
  }

  /**
   * A built article page with its thread's first page in it (thread-splice.ts),
   * kept among the renders under the built file's ETag and sent while the
   * thread's revision is the store's and the built file is unchanged on disk:
   * rendered once per change of the thread, never per reader. It is kept from
   * its second read, so that a crawler walking the archive once pushes no
   * page read often out of the budget. Null, having sent nothing, when the
   * built page is not there, changed on disk or takes no thread: sendFile
   * then answers it as it answers any built file.
   */
  async function sendPageWithThread(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    fragment: string,
    pageHeaders: Record<string, string>,
  ): Promise<number | null> {
    const file = staticFile(pathname);
    if (!file) return null;
    // `#` never reaches the server in a path: no request's own key can be this one.
    const key = `${withoutTrailingSlashes(pathname)}#${file.etag}`;
    const hit = cache.get(key);
    if (hit) {
      const [built, current] = await Promise.all([files.unchanged(file), isCurrent(hit.revision)]);
      // A built page changed or removed since is left to sendFile, which tells which.
      if (!built) return null;
      if (current) return sendStored(req, res, hit.response, { base, varyAccept: true, extraHeaders: pageHeaders });
    }
    let merged = merging.get(key);
    if (!merged) {
      merged = mergeWithThread(req, file, fragment, key, hit !== undefined).finally(() => merging.delete(key));
      merging.set(key, merged);
    }
    const response = await merged;
    return response && sendStored(req, res, response, { base, varyAccept: true, extraHeaders: pageHeaders });
  }

  /** The built page `file` with its thread put in, stored (and kept, once read often: sendPageWithThread). */
  async function mergeWithThread(
    req: IncomingMessage,
    file: StaticFile,
    fragment: string,
    key: string,
    keptBefore: boolean,
  ): Promise<StoredResponse | null> {
    const read = await files.read(file, null);
    if ('stream' in read) read.stream.destroy();
    if (!('body' in read)) return null;
    const page = await pageWithThread(read.body, file.contentType, await render(req, new URL(`${site}${fragment}`)));
    // A page kept before, whose thread changed since, is read often enough to keep again.
    return page && cache.store(key, page, keptBefore || pagesSeenOnce.again(key));
  }

  /**
   * An `/api` request: a read from the cache when a shared cache may keep its
   * response, anything else from the dispatcher. A body is read into a buffer,
   * far cheaper than a web stream over the socket; the write guard still
   * measures it.
   */
  async function serveApi(req: IncomingMessage, res: ServerResponse, asked: URL, served: Served): Promise<number> {
    const socketAddress = req.socket.remoteAddress ?? '';
    served.kind = 'api';
    served.operation = options.operationOf?.(req.method ?? 'GET', asked.pathname) ?? '';
    if (req.method === 'GET' || req.method === 'HEAD') {
      const url = keptUrl(asked, apiQueryParameters(asked.pathname));
      const key = `${url.pathname}${url.search}`;
      const hit = cache.get(key);
      if (hit) return sendStored(req, res, hit.response, { base, extraHeaders: { Age: String(hit.age) } });
      const response = await options.api(toApiRequest(req, url, NO_BODY, true), socketAddress, req.socket);
      if (sharedMaxAge(response.headers.get('Cache-Control')) > 0)
        return sendStored(req, res, await cache.store(key, response.toResponse()), { base });
      if (response.status >= 500) served.requestId = response.headers.get('X-Request-Id') ?? '';
      return sendApiResponse(req, res, response, baseList);
    }
    // A body declared larger than the cap is refused on its declaration (the write guard's 413): never waited for.
    const declaredTooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
    const body = declaredTooLarge ? NO_BODY : await readCapped(req, MAX_BODY_BYTES);
    const response = await options.api(toApiRequest(req, asked, body, false), socketAddress, req.socket);
    // The rest of a body past the cap was never read: this connection cannot carry another request.
    if (declaredTooLarge || body.length > MAX_BODY_BYTES) response.headers.set('Connection', 'close');
    if (response.status >= 500) served.requestId = response.headers.get('X-Request-Id') ?? '';
    return sendApiResponse(req, res, response, baseList);
  }

  /**
   * A request to the MCP server, handed over as a web request: a body is read
   * up to one byte past the API's cap, never more, and refused by the server
   * past it; `Content-Length` is handed over as sent, so a body declared
   * larger is refused unread.
   */
  async function serveMcp(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    mcp: NonNullable<FrontServerOptions['mcp']>,
  ): Promise<number> {
    const withBody = req.method !== 'GET' && req.method !== 'HEAD';
    const declaredTooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
    const body = withBody && !declaredTooLarge ? await readCapped(req, MAX_BODY_BYTES) : NO_BODY;
    const response = await mcp(
      new Request(url, { method: req.method ?? 'GET', headers: headersOf(req), ...(withBody ? { body: body.slice() } : {}) }),
      { socketAddress: req.socket.remoteAddress ?? '', connection: req.socket },
    );
    if (declaredTooLarge || body.length > MAX_BODY_BYTES) response.headers.set('Connection', 'close');
    return sendResponse(req, res, response, base);
  }

  /**
   * A moderation link's page: its request handed over with the headers it
   * came with (the POST's Origin is checked there) and without its body,
   * which the page's form leaves empty; Node drops what a client sends there.
   */
  async function serveModeration(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    moderation: NonNullable<FrontServerOptions['moderation']>,
  ): Promise<number> {
    return sendResponse(req, res, await moderation(new Request(url, { method: req.method ?? 'GET', headers: headersOf(req) })), base);
  }

  /** Answers a request and says what it was in `served`; resolves with the body's bytes sent. */
  async function handle(req: IncomingMessage, res: ServerResponse, served: Served): Promise<number> {
    const path = pathOf(req.url ?? '/');
    const probe = probes.get(path);
    if (probe) {
      served.kind = 'health';
      return sendProbe(req, res, probe, baseList);
    }
    const formResponse = formResponses.get(path);
    if (formResponse) {
      served.kind = 'form';
      return sendProbe(req, res, formResponse, baseList);
    }
    const url = requestUrl(req, site);
    if (isApiPath(url.pathname)) return serveApi(req, res, url, served);
    if ((url.pathname === DOCUMENT_PATHS.mcp || url.pathname === DOCUMENT_PATHS.mcpServerCard) && options.mcp) {
      served.kind = 'mcp';
      return serveMcp(req, res, url, options.mcp);
    }
    if (url.pathname.startsWith(MODERATION_PATH_PREFIX) && options.moderation) {
      served.kind = 'moderation';
      return serveModeration(req, res, url, options.moderation);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // Pages are read only; writes go to the API, which answers every method itself.
      const response = new Response('Method not allowed\n', {
        status: 405,
        headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' },
      });
      return sendResponse(req, res, response, base);
    }
    const twin = twinPath(url.pathname);
    const wantsTwin = twin !== null && prefersMarkdown(req.headers.accept);
    const target = wantsTwin ? twin : url.pathname;
    // A document in Markdown is a twin, whether asked for by its path or by Accept.
    served.kind = target.endsWith('.md') ? 'twin' : isThreadFragment(target) ? 'fragment' : 'page';
    // A page names its Markdown twin and the documents for agents; a fragment is part of a page, and a twin is the twin.
    const pageHeaders: Record<string, string> = twin !== null && served.kind === 'page' ? { Link: pageLinkHeader(twin) } : {};

    const fragment = wantsTwin ? null : threadFragmentOfPage(target);
    const sentWithThread = fragment === null ? null : await sendPageWithThread(req, res, target, fragment, pageHeaders);
    if (sentWithThread !== null) return sentWithThread;
    const sentFile = await sendFile(
      req,
      res,
      target,
      (file) => {
        if (!file.isDocument) served.kind = 'asset';
        return twin !== null && file.isDocument;
      },
      pageHeaders,
    );
    if (sentFile !== null) return sentFile;
    const kept = keptUrl(url, pageQueryParameters(target));
    const key = `${target}${kept.search}`;
    const hit = cache.get(key) ?? missing.get(key);
    if (hit && (await isCurrent(hit.revision)))
      return sendStored(req, res, hit.response, {
        base,
        varyAccept: twin !== null,
        extraHeaders: { ...(hit.revision ? {} : { Age: String(hit.age) }), ...(hit.response.status === 200 ? pageHeaders : {}) },
      });
    // Joined as text: a path such as `//host/x` must stay a path on this site.
    const targetUrl = new URL(`${site}${key}`);
    const response: StoredResponse = await cache.store(key, await render(req, targetUrl));
    // Pages respond to an unknown path with the site's own 404 page, whoever found it missing.
    const notFound = response.status === 404 ? notFoundPages.get(languageOfPath(url.pathname)) : undefined;
    // Kept a while: a missing address asked for again and again (a crawler, a broken link) is not rendered each time.
    if (notFound) missing.keep(key, notFound, NOT_FOUND_SECONDS);
    return sendStored(req, res, notFound ?? response, {
      base,
      varyAccept: twin !== null,
      extraHeaders: !notFound && response.status === 200 ? pageHeaders : {},
    });
  }

  // A client that sends its headers or its body a byte at a time is cut off, so that it holds no socket for long.
  const timeouts = { headersTimeout: 10_000, requestTimeout: 20_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 2_000 };
  const server = createServer(timeouts, (req, res) => {
    const started = performance.now();
    const served = servedRecord();
    handle(req, res, served).then(
      (bytes) => {
        requestServed(req.method ?? '', pathOf(req.url ?? '/'), res.statusCode, served, bytes, performance.now() - started);
      },
      (error: unknown) => {
        const failure = serverError();
        log().error(`[front] request ${failure.requestId} failed`, { requestId: failure.requestId }, error);
        served.requestId = failure.requestId;
        let bytes = 0;
        if (res.headersSent) res.destroy();
        else bytes = sendApiResponse(req, res, withApiHeadersIfApi(req, failure.response), baseList);
        requestServed(req.method ?? '', pathOf(req.url ?? '/'), res.statusCode, served, bytes, performance.now() - started);
      },
    );
  });
  server.on('close', () => {
    files.close();
  });
  return server;
}

function withApiHeadersIfApi(req: IncomingMessage, response: ApiResponse): ApiResponse {
  if (isApiPath((req.url ?? '').split('?')[0] ?? '')) setApiHeaders(response.headers);
  return response;
}
