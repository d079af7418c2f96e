/**
 * Sliding-window counting: at most `quota` writes in any span of
 * `windowSeconds` (docs/decisions.md, Quotas and the ban). rate-limiter-flexible counts in fixed
 * windows, so the exact count keeps a log of accepted writes per key here.
 */

/** A slot taken in a window; `release()` gives it back when the write is refused after all. */
interface Reservation {
  /** Writes left in the window after this one. */
  remaining: number;
  release(): Promise<void>;
}

export type ReserveResult =
  | { admitted: true; reservation: Reservation }
  /** Refused: the quota is spent; the oldest write leaves the window in `retryAfterSeconds`. */
  | { admitted: false; retryAfterSeconds: number };

export interface WindowLog {
  /** Takes one slot in `key`'s window atomically, or says when one frees up. Rejects when the log cannot be reached. */
  reserve(key: string, quota: number, windowSeconds: number): Promise<ReserveResult>;
  /** How many writes `key` has in its window now. */
  count(key: string, windowSeconds: number): Promise<number>;
}

/** The time a refused write waits: until the oldest accepted write leaves the window, at least one second. */
export function retryAfter(oldestMs: number, windowSeconds: number, nowMs: number): number {
  return Math.max(1, Math.ceil((oldestMs + windowSeconds * 1000 - nowMs) / 1000));
}

/** The log in this process's memory: one instance, or tests. */
export class MemoryWindowLog implements WindowLog {
  readonly #entries = new Map<string, number[]>();
  readonly #now: () => number;
  readonly #longestWindowMs: number;

  constructor(now: () => number, longestWindowSeconds: number) {
    this.#now = now;
    this.#longestWindowMs = longestWindowSeconds * 1000;
  }

  #recent(key: string, windowSeconds: number, now: number): number[] {
    const cutoff = now - windowSeconds * 1000;
    const log = (this.#entries.get(key) ?? []).filter((time) => time > cutoff);
    return log;
  }

  reserve(key: string, quota: number, windowSeconds: number): Promise<ReserveResult> {
    const now = this.#now();
    const log = this.#recent(key, windowSeconds, now);
    if (log.length >= quota) {
      this.#entries.set(key, log);
      return Promise.resolve({ admitted: false, retryAfterSeconds: retryAfter(log[0] ?? now, windowSeconds, now) });
    }
    log.push(now);
    this.#entries.set(key, log);
    const release = () => {
      const current = this.#entries.get(key);
      const index = current?.lastIndexOf(now) ?? -1;
      if (current && index >= 0) current.splice(index, 1);
      return Promise.resolve();
    };
    return Promise.resolve({ admitted: true, reservation: { remaining: quota - log.length, release } });
  }

  count(key: string, windowSeconds: number): Promise<number> {
    return Promise.resolve(this.#recent(key, windowSeconds, this.#now()).length);
  }

  /** Forgets readers with no write inside the longest window, so memory follows the active readers only. */
  sweep(): void {
    const cutoff = this.#now() - this.#longestWindowMs;
    for (const [key, log] of this.#entries) {
      if ((log[log.length - 1] ?? 0) <= cutoff) this.#entries.delete(key);
    }
  }
}
