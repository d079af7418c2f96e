import { randomUUID } from 'node:crypto';
import type { ApiResponse } from './api-response.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { json } from './json-responses.ts';

/** A 5xx response: `requestId` in the body equals the `X-Request-Id` header, so a report can be traced in the log. */
export function serverError(status = 500, message = 'Internal server error'): { response: ApiResponse; requestId: string } {
  const requestId = randomUUID();
  const response = json(
    { error: message, requestId },
    { status, cacheControl: CACHE_CONTROL.error, headers: { 'X-Request-Id': requestId } },
  );
  return { response, requestId };
}

/** The extended 404 of an unknown `/api` path: it tells a lost client where the map is. */
export function unknownApiPath(site: string, pathname: string): ApiResponse {
  const message = `No API operation at ${pathname}`;
  return json(
    {
      error: message,
      code: 'not_found',
      message,
      hint: `See ${site}${DOCUMENT_PATHS.openapi} for every operation.`,
      documentation: `${site}${DOCUMENT_PATHS.developers}`,
      openapi: `${site}${DOCUMENT_PATHS.openapi}`,
    },
    { status: 404, cacheControl: CACHE_CONTROL.error },
  );
}
