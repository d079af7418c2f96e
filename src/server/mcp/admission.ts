/**
 * What the MCP server takes on, so that agents never hold the site's pages
 * and writes up: a POST holds at most MCP_BATCH_MOST messages; a reader sends
 * at most MCP_READER_RATE requests a window and has at most
 * MCP_READER_CONCURRENCY under way; an instance has at most MCP_CONCURRENCY
 * under way, whoever sent them. A request past any of them is refused at
 * once, with a time to come back, never queued. The counts are each
 * instance's own: a reader's share grows with the instances, as the site's
 * capacity does.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { refusal, type Refusal } from '../api-frame/refusals.ts';

/**
 * The most JSON-RPC messages one POST may hold. The 2026-07-28 revision has
 * no batches and the 2025 ones a client rarely fills: a few leave room for a
 * call with its notifications, not for a hundred calls in one request.
 */
export const MCP_BATCH_MOST = 4;

/** Requests one reader (one address, or one IPv6 /64) may send in a window: an agent's reading pace, with room for a burst. */
export const MCP_READER_RATE = { requests: 30, seconds: 10 } as const;

/** Requests one reader may have under way at once. */
export const MCP_READER_CONCURRENCY = 2;

/** Requests under way at once on an instance, every reader's together. */
export const MCP_CONCURRENCY = 4;

/** Seconds a client refused for being too many at once is told to wait (`Retry-After`). */
const CROWDED_RETRY_SECONDS = 1;

/** A request taken, with the function that gives its place back; or refused, with why and when to come back. */
export type Admission = { leave: () => void } | { refused: Refusal };

/** 429 for a reader's rate or share, 503 for the instance's, each with the wait in `Retry-After`. */
function crowded(why: 'rate' | 'reader' | 'instance', retryAfterSeconds: number): Admission {
  const headers = { 'Retry-After': String(retryAfterSeconds) };
  const wait = `try again in ${retryAfterSeconds} s`;
  if (why === 'instance')
    return { refused: refusal('server_busy', `The server is answering as many agents as it takes at once; ${wait}`, headers) };
  const message =
    why === 'rate'
      ? `Too many requests: a client may send ${MCP_READER_RATE.requests} every ${MCP_READER_RATE.seconds} s`
      : `Too many requests at once: a client may have ${MCP_READER_CONCURRENCY} under way`;
  return { refused: refusal('too_many_requests', `${message}; ${wait}`, headers) };
}

/** The MCP requests of one instance, by reader hash. */
export class McpAdmission {
  #underWay = 0;
  readonly #byReader = new Map<string, number>();
  readonly #rate = new RateLimiterMemory({ keyPrefix: 'mcp', points: MCP_READER_RATE.requests, duration: MCP_READER_RATE.seconds });

  /** Takes a request of `reader`: counted against its rate, then given a place if one is free. */
  async enter(reader: string): Promise<Admission> {
    const spent = await this.#rate.consume(reader).then(
      () => null,
      (refusal: unknown) => (refusal instanceof RateLimiterRes ? refusal : Promise.reject(refusal as Error)),
    );
    if (spent) return crowded('rate', Math.max(1, Math.ceil(spent.msBeforeNext / 1000)));
    const readers = this.#byReader.get(reader) ?? 0;
    if (readers >= MCP_READER_CONCURRENCY) return crowded('reader', CROWDED_RETRY_SECONDS);
    if (this.#underWay >= MCP_CONCURRENCY) return crowded('instance', CROWDED_RETRY_SECONDS);
    this.#underWay += 1;
    this.#byReader.set(reader, readers + 1);
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        this.#underWay -= 1;
        const remaining = (this.#byReader.get(reader) ?? 1) - 1;
        if (remaining === 0) this.#byReader.delete(reader);
        else this.#byReader.set(reader, remaining);
      },
    };
  }
}

/** How many messages a body holds when it is a JSON-RPC batch (a JSON array); null for anything else, the SDK's to judge. */
export function batchLength(body: string): number | null {
  if (!body.trimStart().startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? parsed.length : null;
  } catch {
    return null;
  }
}
