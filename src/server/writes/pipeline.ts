import type { z } from 'zod';
import { verifyCaptcha } from '../captcha/captcha.ts';
import type { ApiResponse } from '../api-frame/api-response.ts';
import type { ApiRequest } from '../api-frame/api-request.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { serverError } from '../api-frame/server-errors.ts';
import { json, refusalResponse } from '../api-frame/json-responses.ts';
import { refusal, type Refusal } from '../api-frame/refusals.ts';
import { originRefusal, readInput } from '../api-frame/write-guards.ts';
import { identify, type CallerSource } from '../identity/caller.ts';
import { readerName } from '../identity/reader-name.ts';
import { quotaHeaders, refusedHeaders } from '../quotas/headers.ts';
import { COMMENT_BURST_BAN, type QuotaName } from '../quotas/limits.ts';
import { log } from '../observability/log.ts';
import { writeDecided, type WriteOutcome } from '../observability/counters.ts';
import { QuotasUnavailable } from '../quotas/quotas.ts';
import type { ReserveResult } from '../quotas/window-log.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { formVerdict, type FormFields } from '../spam/form-verdict.ts';

/**
 * A refusal as the write's answer. A 5xx keeps its message and carries its
 * `requestId`, and the log says what went wrong under the same id (never who
 * asked).
 */
function answer(refused: Refusal, detail = refused.message): ApiResponse {
  if (refused.status < 500) return refusalResponse(refused);
  const { response, requestId } = serverError(refused.status, refused.message);
  log().error(`[writes] request ${requestId} answered ${refused.status}: ${detail}`, { requestId });
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
export type PrepareWrite<Input> = (input: Input, context: WriteContext) => Promise<Refusal | (() => Promise<unknown>)>;

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

type Reservation = Extract<ReserveResult, { admitted: true }>['reservation'];

/** A write as its steps see it: what the request and the process give, and what each step learns for the next. */
class WriteInProgress<Input> {
  readonly write: WriteRequest;
  readonly runtime: Runtime;
  readonly operation: WriteOperation<Input>;
  readonly isPublished: (slug: string) => boolean;
  readonly reader: Reader;
  readonly address: string;
  input!: Input;
  held = false;
  store!: () => Promise<unknown>;
  slot!: Reservation;

  constructor(write: WriteRequest, runtime: Runtime, operation: WriteOperation<Input>, isPublished: (slug: string) => boolean) {
    this.write = write;
    this.runtime = runtime;
    this.operation = operation;
    this.isPublished = isPublished;
    const { address, hash } = identify(write, runtime);
    this.address = address;
    this.reader = { hash, name: readerName(hash) };
  }
}

/** One step of the pipeline: the refusal that ends the write, or null to go on. */
type WriteStep<Input> = (write: WriteInProgress<Input>) => Refusal | null | Promise<Refusal | null>;

function sameOrigin<Input>({ write, runtime }: WriteInProgress<Input>): Refusal | null {
  return originRefusal(write.request, runtime.site);
}

async function validInput<Input>(progress: WriteInProgress<Input>): Promise<Refusal | null> {
  const read = await readInput(progress.write.request, progress.operation.schema);
  if (!read.ok) return read.refusal;
  progress.input = read.value;
  return null;
}

/** The burst ban, then the owner's (npm run data -- ban), which has no end: the burst ban's length is the shortest honest wait to name. */
async function notBanned<Input>({ runtime, operation, reader }: WriteInProgress<Input>): Promise<Refusal | null> {
  const banned = await runtime.quotas.banRemaining(reader.hash);
  if (banned > 0) return refusal('burst_banned', undefined, refusedHeaders(operation.quota, banned));
  if (await runtime.store.isBanned(reader.hash))
    return refusal('owner_banned', undefined, refusedHeaders(operation.quota, COMMENT_BURST_BAN.banSeconds));
  return null;
}

/**
 * The form's stamp and honeypot, for the writes the site's forms send. Under
 * moderation a holdable write whose form is not clean waits for the owner;
 * otherwise spam is refused and `unsigned` (no stamp: an API client) is taken.
 */
function notSpam<Input>(progress: WriteInProgress<Input>): Refusal | null {
  const { runtime, operation } = progress;
  if (!operation.captcha) return null;
  const holding = operation.holdable === true && runtime.moderation !== 'off';
  const form = formVerdict(progress.input as FormFields, runtime.keys.formStamp, runtime.formMinSeconds, Date.now());
  if (form.verdict === 'spam' && !holding) return form.refusal;
  progress.held = holding && form.verdict !== 'clean';
  return null;
}

function captchaSolved<Input>({ runtime, operation, input, address }: WriteInProgress<Input>): Promise<Refusal | null> | null {
  if (!operation.captcha) return null;
  return verifyCaptcha(runtime.captcha, (input as { captchaToken?: string }).captchaToken, {
    remoteAddress: address,
    altchaKeys: { challenge: runtime.keys.captchaChallenge, solution: runtime.keys.captchaSolution },
    spendOnce: (key, seconds) => runtime.quotas.spendOnce(key, seconds),
  });
}

async function ownChecks<Input>(progress: WriteInProgress<Input>): Promise<Refusal | null> {
  const { operation, input, reader, runtime, held, isPublished } = progress;
  const prepared = await operation.prepare(input, { reader, runtime, held, isPublished });
  if (typeof prepared !== 'function') return prepared;
  progress.store = prepared;
  return null;
}

async function quotaSlot<Input>(progress: WriteInProgress<Input>): Promise<Refusal | null> {
  const { quota } = progress.operation;
  const slot = await progress.runtime.quotas.reserve(quota, progress.reader.hash);
  if (!slot.admitted)
    return refusal('quota_spent', `Quota reached for ${quota}; try again later`, refusedHeaders(quota, slot.retryAfterSeconds));
  progress.slot = slot.reservation;
  return null;
}

/**
 * The steps of every write, in order, each named by the outcome it decides
 * when it refuses (metrics): whatever is refused before the quota spends none
 * of it.
 */
function writeSteps<Input>(): readonly (readonly [WriteOutcome, WriteStep<Input>])[] {
  return [
    ['origin', sameOrigin],
    ['validation', validInput],
    ['ban', notBanned],
    ['spam', notSpam],
    ['captcha', captchaSolved],
    ['validation', ownChecks],
    ['quota', quotaSlot],
  ];
}

/** Stores a write that every step let through; a store that fails gives its quota slot back. */
async function stored<Input>({ operation, runtime, reader, store, slot }: WriteInProgress<Input>): Promise<ApiResponse> {
  let body: unknown;
  try {
    body = await store();
  } catch (error) {
    await slot.release().catch(() => undefined);
    throw error;
  }
  if (operation.quota === 'comments') {
    // The comment is stored already: a failure to count it must not turn its 200 into an error.
    await runtime.quotas.countComment(reader.hash).catch((error: unknown) => {
      log().error('[quotas] a comment could not be counted toward the burst ban', {}, error);
    });
  }
  return json(body, { cacheControl: CACHE_CONTROL.write, headers: quotaHeaders(operation.quota, slot.remaining) });
}

/** The write's answer and its outcome: the name of the step that refused it (`failed` for a 5xx), or `stored`. */
async function decide<Input>(progress: WriteInProgress<Input>): Promise<{ outcome: WriteOutcome; response: ApiResponse }> {
  for (const [name, step] of writeSteps<Input>()) {
    const refused = await step(progress);
    if (refused) return { outcome: refused.status >= 500 ? 'failed' : name, response: answer(refused) };
  }
  return { outcome: 'stored', response: await stored(progress) };
}

/**
 * The one pipeline every write goes through (docs/architecture.md, "A
 * request's path"): its steps, then the store and the quota headers. Each
 * write is counted once, under its quota's name, by its outcome (metrics); a
 * write that throws is `failed`.
 */
export async function runWrite<Input>(
  write: WriteRequest,
  runtime: Runtime,
  operation: WriteOperation<Input>,
  isPublished: (slug: string) => boolean,
): Promise<ApiResponse> {
  try {
    const { outcome, response } = await decide(new WriteInProgress(write, runtime, operation, isPublished));
    writeDecided(operation.quota, outcome);
    return response;
  } catch (error) {
    writeDecided(operation.quota, 'failed');
    if (error instanceof QuotasUnavailable) return answer(refusal('quotas_unavailable'), error.message);
    throw error;
  }
}
