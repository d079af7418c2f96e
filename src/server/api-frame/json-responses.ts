import { ApiResponse } from './api-response.ts';
import type { ApiRequest } from './api-request.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { etagOf, matchesIfNoneMatch } from '../http/etag.ts';
import { isTold, type Refusal } from './refusals.ts';

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

/**
 * The API's answer to a refusal: `{ error }`, or `{ error, code }` when the
 * catalogue tells its code (src/server/api-frame/refusals.ts), kept by no
 * cache (docs/architecture.md, "The operation registry").
 */
export function refusalResponse({ status, code, message, headers = {} }: Refusal): ApiResponse {
  const body = isTold(code) ? { error: message, code } : { error: message };
  return json(body, { status, cacheControl: CACHE_CONTROL.error, headers });
}
