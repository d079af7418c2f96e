import type { IncomingMessage, ServerResponse } from 'node:http';
import { isApiPath } from '../api-frame/frame.ts';
import type { Served } from '../observability/requests.ts';
import { apiRequest, type ApiRequest } from '../api-frame/api-request.ts';
import type { ApiResponse } from '../api-frame/api-response.ts';
import { sharedMaxAge } from '../http/cache-rules.ts';
import { EMPTY_BODY, readCapped } from '../http/node-web.ts';
import { MAX_BODY_BYTES } from '../api-frame/write-guards.ts';
import { keptUrl, type ResponseCache } from './response-cache.ts';
import type { Route } from './route.ts';
import { sendApiResponse, type BaseHeaders } from './send.ts';
import { sendStored } from './stored-response.ts';

/** Answers an `/api` request, framed (the registry's dispatcher, src/server/api/dispatch.ts): at once when it can. */
export type ApiDispatcher = (request: ApiRequest, socketAddress: string, connection: object) => ApiResponse | Promise<ApiResponse>;

export interface ApiRouteOptions {
  api: ApiDispatcher;
  /** Where reads a shared cache may keep are kept. */
  cache: ResponseCache;
  /** The query parameters the read at a path takes, sorted: the rest are dropped before it. */
  queryParameters: (pathname: string) => readonly string[];
  /** The id of the operation serving a method and path, for logs and metrics. */
  operationOf: (method: string, pathname: string) => string | undefined;
  base: BaseHeaders;
  baseList: readonly string[];
}

/**
 * Every `/api` request: a read from the cache when a shared cache may keep its
 * response, anything else from the dispatcher. A body is read into a buffer,
 * far cheaper than a web stream over the socket; the write guard decides on
 * it as read. A body left unread past the cap closes the connection.
 */
export function apiRoute({ api, cache, queryParameters, operationOf, base, baseList }: ApiRouteOptions): Route {
  // A target asked again comes with the same URL (requestUrls): what a read works out from it is kept beside it.
  const reads = new WeakMap<URL, { url: URL; key: string; operation: string }>();
  /** A read's URL in its kept form, its cache key, and its operation's id. */
  function readAt(asked: URL): { url: URL; key: string; operation: string } {
    let read = reads.get(asked);
    if (!read) {
      const url = keptUrl(asked, queryParameters(asked.pathname));
      read = { url, key: `${url.pathname}${url.search}`, operation: operationOf('GET', asked.pathname) ?? '' };
      reads.set(asked, read);
    }
    return read;
  }
  /** A read's answer sent, kept first when a shared cache may keep it. */
  function sendRead(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    response: ApiResponse,
    served: Served,
  ): number | Promise<number> {
    if (sharedMaxAge(response.headers.get('Cache-Control')) > 0) {
      return cache.store(key, response.toResponse()).then((stored) => sendStored(req, res, stored, { base }));
    }
    if (response.status >= 500) served.requestId = response.headers.get('X-Request-Id') ?? '';
    return sendApiResponse(req, res, response, baseList);
  }
  // A read is answered without a promise when it had nothing to wait for: one from the cache, or one the dispatcher answered at once.
  const read: Route = (req, res, asked, served) => {
    const { url, key, operation } = readAt(asked);
    served.operation = operation;
    const hit = cache.get(key);
    if (hit) return sendStored(req, res, hit.response, { base, extraHeaders: { Age: String(hit.age) } });
    const answer = api(apiRequest(req, url, EMPTY_BODY, true), req.socket.remoteAddress ?? '', req.socket);
    return answer instanceof Promise
      ? answer.then((response) => sendRead(req, res, key, response, served))
      : sendRead(req, res, key, answer, served);
  };
  const write: Route = async (req, res, asked, served) => {
    served.operation = operationOf(req.method ?? 'GET', asked.pathname) ?? '';
    const body = await readCapped(req, req.headers['content-length'], MAX_BODY_BYTES);
    const response = await api(apiRequest(req, asked, body, false), req.socket.remoteAddress ?? '', req.socket);
    if (body.tooLarge) response.headers.set('Connection', 'close');
    if (response.status >= 500) served.requestId = response.headers.get('X-Request-Id') ?? '';
    return sendApiResponse(req, res, response, baseList);
  };
  const serve: Route = (req, res, asked, served) => {
    served.kind = 'api';
    return req.method === 'GET' || req.method === 'HEAD' ? read(req, res, asked, served) : write(req, res, asked, served);
  };
  return (req, res, url, served) => (isApiPath(url.pathname) ? serve(req, res, url, served) : null);
}
