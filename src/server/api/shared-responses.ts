import { MAX_BODY_BYTES } from '../api-frame/write-guards.ts';
import type { QuotaName } from '../quotas/limits.ts';
import type { ToldCode } from '../api-frame/refusals.ts';
import { errorBody, formErrorBody, serverErrorBody } from './response-schemas.ts';
import { EXAMPLE_SITE, type ResponseDefinition } from './definition.ts';
import { QUOTA_HEADERS } from './response-headers.ts';

/** An error response `{ error }` with one example message. */
export function refusal(description: string, message: string, headers: ResponseDefinition['headers'] = []): ResponseDefinition {
  return { description, schema: errorBody, examples: { refused: { error: message } }, headers };
}

/** The 400 of a write sent by a form: its `code` names a refusal of spam defence, which the site's forms say in the reader's language. */
export function formRefusal(description: string, message: string, coded?: { error: string; code: ToldCode }): ResponseDefinition {
  return {
    description,
    schema: formErrorBody,
    examples: { refused: { error: message }, ...(coded ? { [coded.code]: coded } : {}) },
    headers: [],
  };
}

/**
 * A 5xx: its message (what a write says of the failure; "Internal server
 * error" for anything unforeseen) and a `requestId` equal to the
 * `X-Request-Id` header.
 */
function failure(description: string, error = 'Internal server error'): ResponseDefinition {
  return {
    description,
    schema: serverErrorBody,
    examples: { failed: { error, requestId: '0b6c1f7e-3f5a-4a63-9f0e-2d8c4b1a7e55' } },
    headers: ['X-Request-Id'],
  };
}

/** The 304 of a cacheable read. */
export const NOT_MODIFIED: ResponseDefinition = {
  description: 'If-None-Match names the current ETag: no body.',
  headers: ['ETag'],
};

/** What a read can fail with: nothing the caller did. */
export const READ_FAILURE = failure('The server failed; report the requestId.');

/** The response of a successful write: its quota headers too. */
export function written(description: string, schema: ResponseDefinition['schema'], examples: Record<string, unknown>): ResponseDefinition {
  return { description, ...(schema ? { schema } : {}), examples, headers: QUOTA_HEADERS };
}

/** The refusals every write shares (docs/architecture.md, "A request's path"). */
export function writeRefusals(quota: QuotaName, captcha: boolean): Record<number, ResponseDefinition> {
  return {
    403: refusal(
      'The Origin header is missing or is not the site’s own: writes come from the site’s pages only.',
      `Writes are accepted from the site's own pages only (Origin ${EXAMPLE_SITE})`,
    ),
    413: refusal(`The body is larger than ${MAX_BODY_BYTES} bytes.`, `The body must be at most ${MAX_BODY_BYTES} bytes`),
    415: refusal('Content-Type is not application/json.', 'Content-Type must be application/json'),
    429: refusal(
      'The quota is reached, or the reader is banned for a while; wait Retry-After seconds.',
      `Quota reached for ${quota}; try again later`,
      [...QUOTA_HEADERS, 'Retry-After'],
    ),
    500: failure(captcha ? 'The store failed, or the captcha is misconfigured on the server.' : 'The store failed.'),
    ...(captcha
      ? { 502: failure('The captcha provider could not be reached or took over 3 seconds.', 'The captcha provider could not be reached') }
      : {}),
    503: failure(
      'The rate limits could not be checked (the quota store is down); try again shortly.',
      'The rate limits could not be checked; try again shortly',
    ),
  };
}
