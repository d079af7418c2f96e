import { ApiResponse } from './api-response.ts';
import type { ApiRequest } from './api-request.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { etagOf, matchesIfNoneMatch } from '../http/etag.ts';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface JsonOptions {
  status?: number;
  cacheControl: string;
  headers?: Record<string, string>;
}

/** A JSON response. */
export function json(body: unknown, { status = 200, cacheControl, headers = {} }: JsonOptions): ApiResponse {
  return new ApiResponse(status, { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': cacheControl, ...headers }, JSON.stringify(body));
}

/**
 * A cacheable JSON read with an `ETag`; answers 304 without a body when the
 * caller already holds these exact bytes.
 */
export function cacheableJson(request: ApiRequest, body: unknown, cacheControl: string): ApiResponse {
  const text = JSON.stringify(body);
  const etag = etagOf(text);
  const headers = { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': cacheControl, ETag: etag };
  if (matchesIfNoneMatch(request.header('If-None-Match'), etag)) {
    return new ApiResponse(304, headers, null);
  }
  return new ApiResponse(200, headers, text);
}

/** `{ error }`: the body of every refusal (docs/architecture.md, "The operation registry"). */
export function jsonError(status: number, message: string, headers: Record<string, string> = {}): ApiResponse {
  return json({ error: message }, { status, cacheControl: CACHE_CONTROL.error, headers });
}

/**
 * `{ error, code }`: a 400 whose `code` (a short machine string) lets the
 * site's forms say it in the reader's language.
 */
export function codedRefusal(code: string, message: string): ApiResponse {
  return json({ error: message, code }, { status: 400, cacheControl: CACHE_CONTROL.error });
}
