import type { z } from 'zod';
import { verifyCaptcha } from '../captcha/captcha.ts';
import { ApiResponse } from '../api-frame/api-response.ts';
import type { ApiRequest } from '../api-frame/api-request.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { serverError } from '../api-frame/server-errors.ts';
import { codedRefusal, json, jsonError } from '../api-frame/json-responses.ts';
import { guardWrite } from '../api-frame/write-guards.ts';
import { identify, type CallerSource } from '../identity/caller.ts';
import { readerName } from '../identity/reader-name.ts';
import { quotaHeaders, refusedHeaders } from '../quotas/headers.ts';
import { COMMENT_BURST_BAN, type QuotaName } from '../quotas/limits.ts';
import { log } from '../observability/log.ts';
import { writeDecided, type WriteOutcome } from '../observability/counters.ts';
import { QuotasUnavailable } from '../quotas/quotas.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { formVerdict, type FormFields } from '../spam/form-verdict.ts';

/**
 * A 5xx that keeps its message: it carries its `requestId`, and the log says
 * what went wrong under the same id (never who asked).
 */
function failure(status: number, message: string, detail = message): ApiResponse {
  const { response, requestId } = serverError(status, message);
  log().error(`[writes] request ${requestId} answered ${status}: ${detail}`, { requestId });
  return response;
}

/** Who writes: known only by the salted hash of the address, shown by the name derived from it. */
interface Reader {
  hash: string;
  name: string;
}

/** What a write's own checks are given besides its input. */
interface WriteContext {
  reader: Reader;
  runtime: Runtime;
  /** Whether the pipeline holds this write for the owner's approval (`holdable` writes, under MODERATION). */
  held: boolean;
  /** Whether an article is published today: the writes that target one check it first. */
  isPublished: (slug: string) => boolean;
}

/**
 * Checks a write's own rules (the article exists, the parent is on it…) and
 * answers either a refusal, which spends no quota, or the step that stores
 * the write and returns the 200 body.
 */
export type PrepareWrite<Input> = (input: Input, context: WriteContext) => Promise<ApiResponse | (() => Promise<unknown>)>;

/**
 * One write operation as the pipeline runs it: its quota, schema and captcha
 * rule, as its registry entry declares them (src/server/api/write-operation.ts),
 * and its own checks.
 */
export interface WriteOperation<Input> {
  quota: QuotaName;
  schema: z.ZodType<Input>;
  /**
   * Votes never need a captcha; the other writes, which the site's forms
   * send, do where it is enabled, and have their form's stamp and honeypot
   * read (src/server/spam/form-verdict.ts).
   */
  captcha: boolean;
  /**
   * Whether the write can wait for the owner's approval (a comment or a
   * topic request, under MODERATION): then a form that looks sent by a robot, or sent with no
   * stamp, is held instead of refused or taken (docs/owner.md, "Moderation").
   */
  holdable?: boolean;
  prepare: PrepareWrite<Input>;
}

export interface WriteRequest extends CallerSource {
  request: ApiRequest;
}

/**
 * The one pipeline every write goes through: guards and validation, the ban,
 * the form's stamp and honeypot, the captcha, the operation's own checks, then the quota, the store and the
 * quota headers. Whatever is refused before the quota spends none of it; a
 * write whose store fails gives its slot back. Each write is counted once,
 * under its quota's name, by the outcome decided here (metrics).
 */
export async function runWrite<Input>(
  write: WriteRequest,
  runtime: Runtime,
  operation: WriteOperation<Input>,
  isPublished: (slug: string) => boolean,
): Promise<ApiResponse> {
  const decided: { outcome: WriteOutcome } = { outcome: 'failed' };
  try {
    return await decide(write, runtime, operation, isPublished, decided);
  } finally {
    writeDecided(operation.quota, decided.outcome);
  }
}

async function decide<Input>(
  write: WriteRequest,
  runtime: Runtime,
  operation: WriteOperation<Input>,
  isPublished: (slug: string) => boolean,
  decided: { outcome: WriteOutcome },
): Promise<ApiResponse> {
  const guarded = await guardWrite(write.request, runtime.site, operation.schema);
  if (!guarded.ok) {
    decided.outcome = guarded.response.status === 403 ? 'origin' : 'validation';
    return guarded.response;
  }
  const { address, hash } = identify(write, runtime);
  const reader: Reader = { hash, name: readerName(hash) };
  const input = guarded.value;
  try {
    const banned = await runtime.quotas.banRemaining(reader.hash);
    decided.outcome = 'ban';
    if (banned > 0)
      return jsonError(429, 'Too many comments in a short time: writing is paused for now', refusedHeaders(operation.quota, banned));
    // The owner's ban (npm run data -- ban) has no end; the burst ban's length is the shortest honest wait to name.
    if (await runtime.store.isBanned(reader.hash))
      return jsonError(429, 'Writing is paused for this reader', refusedHeaders(operation.quota, COMMENT_BURST_BAN.banSeconds));

    // Under moderation a holdable write whose form is not clean waits for the owner; otherwise spam is
    // refused and `unsigned` (no stamp: an API client) is taken.
    const holding = operation.holdable === true && runtime.moderation !== 'off';
    let held = false;
    if (operation.captcha) {
      const form = formVerdict(input as FormFields, runtime.keys.formStamp, runtime.formMinSeconds, Date.now());
      decided.outcome = 'spam';
      if (form.verdict === 'spam' && !holding) return codedRefusal(form.code, form.message);
      held = holding && form.verdict !== 'clean';
      const token = (input as { captchaToken?: string }).captchaToken;
      const captcha = await verifyCaptcha(runtime.captcha, token, {
        remoteAddress: address,
        altchaKeys: { challenge: runtime.keys.captchaChallenge, solution: runtime.keys.captchaSolution },
        spendOnce: (key, seconds) => runtime.quotas.spendOnce(key, seconds),
      });
      decided.outcome = captcha.ok || captcha.status === 400 ? 'captcha' : 'failed';
      if (!captcha.ok)
        return captcha.status === 400 ? codedRefusal(captcha.code, captcha.message) : failure(captcha.status, captcha.message);
    }

    decided.outcome = 'validation';
    const prepared = await operation.prepare(input, { reader, runtime, held, isPublished });
    if (prepared instanceof ApiResponse) return prepared;

    decided.outcome = 'quota';
    const slot = await runtime.quotas.reserve(operation.quota, reader.hash);
    if (!slot.admitted) {
      return jsonError(
        429,
        `Quota reached for ${operation.quota}; try again later`,
        refusedHeaders(operation.quota, slot.retryAfterSeconds),
      );
    }
    decided.outcome = 'failed';
    let body: unknown;
    try {
      body = await prepared();
    } catch (error) {
      await slot.reservation.release().catch(() => undefined);
      throw error;
    }
    if (operation.quota === 'comments') {
      // The comment is stored already: a failure to count it must not turn its 200 into an error.
      await runtime.quotas.countComment(reader.hash).catch((error: unknown) => {
        log().error('[quotas] a comment could not be counted toward the burst ban', {}, error);
      });
    }
    decided.outcome = 'stored';
    return json(body, { cacheControl: CACHE_CONTROL.write, headers: quotaHeaders(operation.quota, slot.reservation.remaining) });
  } catch (error) {
    decided.outcome = 'failed';
    if (error instanceof QuotasUnavailable) {
      return failure(503, 'The rate limits could not be checked; try again shortly', error.message);
    }
    throw error;
  }
}
