/**
 * Sliding-window counting: at most `quota` writes in any span of
 * `windowSeconds` (docs/architecture.md, "Readers, quotas and spam defence"). rate-limiter-flexible counts in fixed
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
  /** Takes one slot in the reader's window of `scope` atomically, or says when one frees up. Rejects when the log cannot be reached. */
  reserve(scope: string, reader: string, quota: number, windowSeconds: number): Promise<ReserveResult>;
}

/** The time a refused write waits: until the oldest accepted write leaves the window, at least one second. */
export function retryAfter(oldestMs: number, windowSeconds: number, nowMs: number): number {
  return Math.max(1, Math.ceil((oldestMs + windowSeconds * 1000 - nowMs) / 1000));
}

/**
 * A reader's accepted writes in a window, oldest first: one time as a plain
 * number (most readers write once in a day), more as an array of exactly
 * their length. Kept per reader for a day, so every byte counts.
 */
type Times = number | readonly number[];

function timesIn(times: Times | undefined): readonly number[] {
  return times === undefined ? [] : typeof times === 'number' ? [times] : times;
}

function compact(times: readonly number[]): Times | undefined {
  return times.length === 0 ? undefined : times.length === 1 ? times[0] : times;
}

/** The log in this process's memory: one instance, or tests. */
export class MemoryWindowLog implements WindowLog {
  /** Per scope, per reader: a reader's hash is a key of its own, never joined to the scope's name. */
  readonly #scopes = new Map<string, Map<string, Times>>();
  /** Each scope's window, as its last write named it: what `sweep` may forget. */
  readonly #windowsMs = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  #readers(scope: string): Map<string, Times> {
    let readers = this.#scopes.get(scope);
    if (!readers) {
      readers = new Map();
      this.#scopes.set(scope, readers);
    }
    return readers;
  }

  #recent(readers: Map<string, Times>, reader: string, windowSeconds: number, now: number): readonly number[] {
    const cutoff = now - windowSeconds * 1000;
    return timesIn(readers.get(reader)).filter((time) => time > cutoff);
  }

  #keep(readers: Map<string, Times>, reader: string, times: readonly number[]): void {
    const kept = compact(times);
    if (kept === undefined) readers.delete(reader);
    else readers.set(reader, kept);
  }

  reserve(scope: string, reader: string, quota: number, windowSeconds: number): Promise<ReserveResult> {
    const now = this.#now();
    const readers = this.#readers(scope);
    this.#windowsMs.set(scope, windowSeconds * 1000);
    const log = this.#recent(readers, reader, windowSeconds, now);
    if (log.length >= quota) {
      this.#keep(readers, reader, log);
      return Promise.resolve({ admitted: false, retryAfterSeconds: retryAfter(log[0] ?? now, windowSeconds, now) });
    }
    const kept = log.concat(now);
    this.#keep(readers, reader, kept);
    const release = () => {
      const current = [...timesIn(readers.get(reader))];
      const index = current.lastIndexOf(now);
      if (index >= 0) {
        current.splice(index, 1);
        this.#keep(readers, reader, current);
      }
      return Promise.resolve();
    };
    return Promise.resolve({ admitted: true, reservation: { remaining: quota - kept.length, release } });
  }

  /** Forgets readers with no write inside their scope's window (a minute for votes), so memory follows the active readers only. */
  sweep(): void {
    for (const [scope, readers] of this.#scopes) {
      const cutoff = this.#now() - (this.#windowsMs.get(scope) ?? 0);
      for (const [reader, times] of readers) {
        if ((typeof times === 'number' ? times : (times.at(-1) ?? 0)) <= cutoff) readers.delete(reader);
      }
    }
  }

  /** How many readers the log holds times for, in every scope. */
  get heldReaders(): number {
    let held = 0;
    for (const readers of this.#scopes.values()) held += readers.size;
    return held;
  }
}
