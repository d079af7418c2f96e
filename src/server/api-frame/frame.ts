import { deprecationHeaders, type Deprecation } from '../http/deprecation.ts';
import { setApiHeaders } from './api-headers.ts';
import type { ApiResponse } from './api-response.ts';
import { serverError } from './server-errors.ts';
import { refusalResponse } from './json-responses.ts';
import { refusal } from './refusals.ts';
import { log } from '../observability/log.ts';

/** Whether a path is the API's: every response under it is framed and JSON. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * The frame around every `/api` answer: a failure (thrown, or a 5xx without
 * one) becomes a 500 with a `requestId` (logged with the error, never with the
 * caller's address), and every response carries the API headers
 * (docs/architecture.md, "The operation registry"); the responses of a deprecated `operation` add
 * Deprecation and Sunset. An answer given at once is framed at once: a read
 * that had nothing to wait for is sent without a promise.
 */
export function withApiFrame(
  next: () => ApiResponse | Promise<ApiResponse>,
  operation?: { deprecation?: Deprecation | undefined },
): ApiResponse | Promise<ApiResponse> {
  let answer: ApiResponse | Promise<ApiResponse>;
  try {
    answer = next();
  } catch (error) {
    return framed(failed(error), operation);
  }
  if (answer instanceof Promise) {
    return answer.then(
      (response) => framed(response, operation),
      (error: unknown) => framed(failed(error), operation),
    );
  }
  return framed(answer, operation);
}

/** The 500 of a request that failed, its error logged under the request's id. */
function failed(error: unknown): ApiResponse {
  const failure = serverError();
  log().error(`[api] request ${failure.requestId} failed`, { requestId: failure.requestId }, error);
  return failure.response;
}

function framed(answer: ApiResponse, operation: { deprecation?: Deprecation | undefined } | undefined): ApiResponse {
  let response = answer;
  if (response.status >= 500 && !response.headers.has('X-Request-Id')) {
    const failure = serverError(response.status);
    log().error(`[api] request ${failure.requestId} answered ${response.status}`, { requestId: failure.requestId });
    response = failure.response;
  }
  setApiHeaders(response.headers);
  if (operation?.deprecation) {
    for (const [name, value] of Object.entries(deprecationHeaders(operation.deprecation))) response.headers.set(name, value);
  }
  return response;
}

/** The 405 of a path that other methods serve, naming them in `Allow`. */
export function methodNotAllowed(allowed: readonly string[]): ApiResponse {
  return refusalResponse(refusal('method_not_allowed', `Method not allowed; use ${allowed.join(' or ')}`, { Allow: allowed.join(', ') }));
}
