/**
 * Keys that may be spent once each while they live (a solved captcha
 * challenge, by its nonce: docs/architecture.md, "Readers, quotas and spam defence"), kept where the
 * quotas are: in this process's memory, or in Redis for every instance.
 */
export interface SpentKeys {
  /** True the first time `key` is spent within `seconds`; false when it was already. Rejects when the keys cannot be reached. */
  spend(key: string, seconds: number): Promise<boolean>;
}

/** Spent keys in memory, each forgotten once its time is over (at the next sweep). */
export class MemorySpentKeys implements SpentKeys {
  /** Until when (epoch milliseconds) each key stays spent. */
  readonly #until = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  spend(key: string, seconds: number): Promise<boolean> {
    const now = this.#now();
    const until = this.#until.get(key);
    if (until !== undefined && until > now) return Promise.resolve(false);
    this.#until.set(key, now + seconds * 1000);
    return Promise.resolve(true);
  }

  sweep(): void {
    const now = this.#now();
    for (const [key, until] of this.#until) if (until <= now) this.#until.delete(key);
  }
}
