/**
 * Lets at most `limit` tasks run at once; the others wait their turn, in
 * order. The store passes every database call through one, as wide as its
 * pool, so that a burst of writes queues here instead of in the pool, where
 * a wait counts against the connection timeout that is there to notice a
 * PostgreSQL that does not answer.
 */
export class Gate {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #idle: (() => void)[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running += 1;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next task, so a new arrival cannot take it first.
      if (next) next();
      else this.#running -= 1;
      if (this.#running === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  /** Resolves once no task runs or waits: what was let in finishes before the pool closes. */
  idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
