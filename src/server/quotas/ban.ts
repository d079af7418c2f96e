import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * The temporary ban, as a rate-limiter-flexible block: it lives in memory or
 * in Redis like the limiter it is given, and expires on its own.
 */
export class Ban {
  readonly #limiter: RateLimiterAbstract;
  readonly #seconds: number;

  /** `limiter` must allow 1 point per `seconds`: a block puts it past that for the ban's length. */
  constructor(limiter: RateLimiterAbstract, seconds: number) {
    this.#limiter = limiter;
    this.#seconds = seconds;
  }

  /** Seconds left of this reader's ban, 0 when not banned. */
  async remainingSeconds(reader: string): Promise<number> {
    const state = await this.#limiter.get(reader);
    if (!state || state.consumedPoints <= this.#limiter.points) return 0;
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  }

  async impose(reader: string): Promise<void> {
    await this.#limiter.block(reader, this.#seconds);
  }
}
