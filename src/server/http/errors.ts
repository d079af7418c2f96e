import { randomUUID } from 'node:crypto';
import { DOCUMENT_PATHS } from './site-paths.ts';
import { CACHE_CONTROL } from './cache-rules.ts';
import { json, jsonError } from './json.ts';

/** A 5xx answer: `requestId` in the body equals the `X-Request-Id` header, so a report can be traced in the log. */
export function serverError(status = 500, message = 'Internal server error'): { response: Response; requestId: string } {
  const requestId = randomUUID();
  const response = json(
    { error: message, requestId },
    { status, cacheControl: CACHE_CONTROL.error, headers: { 'X-Request-Id': requestId } },
  );
  return { response, requestId };
}

/** The extended 404 of an unknown `/api` path: it tells a lost client where the map is. */
export function unknownApiPath(site: string, pathname: string): Response {
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

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad request',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body too large',
  415: 'Unsupported media type',
};

/** Turns an answer that is not JSON (a framework's own error page) into a JSON error of the same status. */
export function asJsonError(response: Response): Response {
  const headers: Record<string, string> = {};
  const allow = response.headers.get('Allow');
  if (allow) headers['Allow'] = allow;
  return jsonError(response.status, STATUS_MESSAGES[response.status] ?? `HTTP ${response.status}`, headers);
}
