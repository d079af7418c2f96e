import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { todayUtc } from '../articles/catalog.ts';
import { isApiPath } from '../api-frame/frame.ts';
import { setApiHeaders } from '../api-frame/api-headers.ts';
import type { ApiResponse } from '../api-frame/api-response.ts';
import { serverError } from '../api-frame/server-errors.ts';
import { pageRequest, pathOf, requestUrls } from '../http/node-web.ts';
import { log } from '../observability/log.ts';
import { cacheWatched } from '../observability/counters.ts';
import { requestServed, servedRecord, type Served } from '../observability/requests.ts';
import { setting } from '../settings/environment.ts';
import { apiRoute, type ApiDispatcher } from './api-route.ts';
import { federationRoute, type FederationServer } from './federation-route.ts';
import { mcpRoute, type McpServer } from './mcp-route.ts';
import { moderationRoute, type ModerationPages } from './moderation-route.ts';
import { subscribeRoute, type NewsletterServer } from './subscribe-route.ts';
import { takeNotFoundPages } from './not-found.ts';
import { probeRoute, type Probes } from './probe-route.ts';
import { renderRoute } from './render-route.ts';
import { MISSING_ENTRIES, notFoundRoute } from './not-found-route.ts';
import { ResponseCache, type Revision } from './response-cache.ts';
import type { PathRoute, Route } from './route.ts';
import { notBeforeDates, type ScheduledArticle } from './schedule.ts';
import { sendApiResponse } from './send.ts';
import { StaticFiles } from './static-files.ts';
import { staticRoute, type PageContext } from './static-route.ts';

/** What kept renders may hold, their compressed copies counted: room for the pages of many busy threads. */
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/** The part of Astro's App the front server uses. */
export interface AstroApp {
  match(request: Request): unknown;
  render(request: Request, options: { routeData?: never; clientAddress?: string }): Promise<Response>;
}

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
   * src/server/health/health.ts): no page, file or API route can shadow
   * them, and they cost no URL parsing. Any query string is ignored.
   */
  probes?: Probes;
  /**
   * What a form asks for when it is shown (its stamp, the captcha's
   * challenge: src/server/spam/form-responses.ts), by exact path, answered as
   * the probes are: JSON, `no-store`, GET and HEAD only.
   */
  formResponses?: Probes;
  /** The id of the API operation serving a method and path (the registry's), for logs and metrics; none for a path no operation serves. */
  operationOf?: (method: string, pathname: string) => string | undefined;
  /**
   * Answers every request to `/mcp` and its server card, the MCP server
   * (src/server/mcp/endpoint.ts): a body read as the API's is, the caller
   * named as the API's is.
   */
  mcp?: McpServer;
  /** Answers every request under `/moderation/`, the pages of the owner's signed links (src/server/owner/moderation-pages.ts), GET and POST. */
  moderation?: ModerationPages;
  /** The federation's requests (src/server/federation/), asked before the pages; none while FEDERATION is off. */
  federation?: FederationServer;
  /** Answers `POST /subscribe` and the pages under `/newsletter/` (src/server/newsletter/newsletter.ts); without it (NEWSLETTER off) they answer 404. */
  newsletter?: NewsletterServer;
}

/** The routes, asked in order; the last answers whatever reaches it. */
interface RouteTable {
  /** Asked by the path as Node gives it, before any URL is parsed. */
  byPath: readonly PathRoute[];
  /** Asked with the request's URL on the site. */
  byUrl: readonly Route[];
  /** The built files the routes read, closed with the server. */
  files: StaticFiles;
}

/** The page routes' shared parts, and the caches they keep, each reported to the metrics. */
async function pageContext(options: FrontServerOptions, base: Readonly<Record<string, string>>): Promise<PageContext> {
  const { app, site } = options;
  const today = options.today ?? (() => todayUtc());
  const files = await StaticFiles.open(options.clientDir, { cacheBytes: options.fileCacheBytes ?? setting('STATIC_CACHE_MIB') });
  const notBefore = notBeforeDates(options.schedule ?? []);
  const cache = new ResponseCache({ maxEntries: options.cacheEntries ?? 2000, maxBytes: options.cacheBytes ?? DEFAULT_CACHE_BYTES });
  cacheWatched('renders', () => cache.stats());
  cacheWatched('files', () => files.stats());
  return {
    files,
    cache,
    site,
    base,
    webmention: options.federation?.webmentionEndpoint,
    staticFile(pathname) {
      const date = notBefore(pathname);
      return date !== undefined && date > today() ? undefined : files.get(pathname);
    },
    async isCurrent(revision: Revision | undefined) {
      return !revision || (options.revisionOf !== undefined && (await options.revisionOf(revision.topic)) === revision.token);
    },
    render(req, url) {
      const request = pageRequest(req, url);
      return app.render(request, { routeData: app.match(request) as never, clientAddress: req.socket.remoteAddress ?? '' });
    },
  };
}

/**
 * The route table, in the order a request is asked: the probes and the form
 * answers by exact path; then `/api`, `/mcp`, `/moderation/`, the
 * federation's, `/subscribe` and `/newsletter/`, the built
 * files and the pages with their thread, the pages Astro renders, and last
 * the site's 404 page. A route is one module and one line here.
 */
async function routeTable(
  options: FrontServerOptions,
  base: Readonly<Record<string, string>>,
  baseList: readonly string[],
): Promise<RouteTable> {
  const pages = await pageContext(options, base);
  const notFoundPages = await takeNotFoundPages(pages.files);
  const missing = new ResponseCache({ maxEntries: MISSING_ENTRIES });
  cacheWatched('not-found', () => missing.stats());
  const { cache } = pages;
  const api = apiRoute({
    api: options.api,
    cache,
    queryParameters: options.apiQueryParameters ?? (() => []),
    operationOf: options.operationOf ?? (() => undefined),
    base,
    baseList,
  });
  return {
    byPath: [probeRoute(options.probes ?? new Map(), 'health', baseList), probeRoute(options.formResponses ?? new Map(), 'form', baseList)],
    byUrl: [
      api,
      ...(options.mcp ? [mcpRoute(options.mcp, base)] : []),
      ...(options.moderation ? [moderationRoute(options.moderation, base)] : []),
      ...(options.federation ? [federationRoute(options.federation, base)] : []),
      subscribeRoute(options.newsletter, base),
      staticRoute(pages),
      renderRoute(pages, notFoundPages, missing),
      notFoundRoute(notFoundPages, missing, base),
    ],
    files: pages.files,
  };
}

/**
 * Answers a request by the first route that takes it, and says what it was
 * in `served`; the body's bytes sent, at once when the route answered at
 * once, or a promise of them.
 */
function handle(
  routes: RouteTable,
  urlOf: (req: IncomingMessage) => URL,
  req: IncomingMessage,
  res: ServerResponse,
  served: Served,
): number | Promise<number> {
  const path = pathOf(req.url ?? '/');
  for (const route of routes.byPath) {
    const sent = route(req, res, path, served);
    if (sent !== null) return sent;
  }
  return askInTurn(routes.byUrl, 0, req, res, urlOf(req), served);
}

/** Asks `routes` from `first` on, in turn, until one answers. */
function askInTurn(
  routes: readonly Route[],
  first: number,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  served: Served,
): number | Promise<number> {
  for (let index = first; index < routes.length; index += 1) {
    const sent = (routes[index] as Route)(req, res, url, served);
    if (sent === null) continue;
    if (typeof sent === 'number') return sent;
    return sent.then((bytes) => bytes ?? askInTurn(routes, index + 1, req, res, url, served));
  }
  throw new Error(`No route answered ${url.pathname}`);
}

function withApiHeadersIfApi(req: IncomingMessage, response: ApiResponse): ApiResponse {
  if (isApiPath(pathOf(req.url ?? ''))) setApiHeaders(response.headers);
  return response;
}

/**
 * The site's HTTP server. In front of Astro it answers, from memory: the
 * prerendered files (with precompressed bodies, ETags, and the Markdown twin
 * when `Accept` asks for it), and every on-demand response whose own
 * Cache-Control lets a shared cache keep it. `/api` requests go to the API
 * dispatcher; every other page to Astro. Around the routes it keeps the
 * error boundary: a request that fails answers 500 with a `requestId` that
 * the log names, and each request leaves one access-log line.
 */
export async function createFrontServer(options: FrontServerOptions): Promise<Server> {
  // Given to every writeHead whole, never set one by one: a header set before writeHead sends Node down its slow path,
  // which checks every header again.
  const base = options.headers ?? {};
  const baseList = Object.entries(base).flat();
  const routes = await routeTable(options, base, baseList);
  const urlOf = requestUrls(options.site);

  // A client that sends its headers or its body a byte at a time is cut off, so that it holds no socket for long.
  const timeouts = { headersTimeout: 10_000, requestTimeout: 20_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 2_000 };
  const server = createServer(timeouts, (req, res) => {
    const started = performance.now();
    const served = servedRecord();
    const done = (bytes: number) => {
      requestServed(req.method ?? '', pathOf(req.url ?? '/'), res.statusCode, served, bytes, performance.now() - started);
    };
    const fail = (error: unknown) => {
      const failure = serverError();
      log().error(`[front] request ${failure.requestId} failed`, { requestId: failure.requestId }, error);
      served.requestId = failure.requestId;
      let bytes = 0;
      if (res.headersSent) res.destroy();
      else bytes = sendApiResponse(req, res, withApiHeadersIfApi(req, failure.response), baseList);
      done(bytes);
    };
    let sent: number | Promise<number>;
    try {
      sent = handle(routes, urlOf, req, res, served);
    } catch (error) {
      fail(error);
      return;
    }
    if (typeof sent === 'number') done(sent);
    else sent.then(done, fail);
  });
  server.on('close', () => {
    routes.files.close();
  });
  return server;
}
