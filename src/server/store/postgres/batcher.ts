import { batchRan } from '../../observability/counters.ts';

/**
 * Groups calls that come in while the database is busy, so that one round
 * trip and one commit carry many of them (group commit, done by the site).
 *
 * A call that comes in while fewer than `concurrency` batches are running
 * goes out at the next turn of the event loop, with whatever else came in by
 * then: a call alone waits for nothing. Otherwise it waits for a running
 * batch to end and goes with the next one, at most `maxItems` a batch. Each
 * call settles when its batch does, so a write is answered only once its
 * batch committed.
 *
 * Failure rules: a batch that one call's data fails (SQLSTATE class 22, a data
 * exception such as a NUL in text, or 23, a broken constraint) is run again
 * one call at a time, in order, so that only the offending call fails; a batch
 * chosen as a deadlock's victim is run again once; any other failure (a
 * timeout, a lost connection) fails every call of the batch at once, never
 * retried, so that a write still fails within its time limit.
 */
/** How the site's hot paths batch: a few batches at once per kind, each of up to 100 calls. */
export const BATCHES = { maxItems: 100, concurrency: 4 };

export class Batcher<Item, Result> {
  /** What the metrics call these batches ("comments", "votes"…). */
  readonly #name: string;
  readonly #run: (items: Item[]) => Promise<Result[]>;
  readonly #maxItems: number;
  readonly #concurrency: number;
  readonly #queue: Call<Item, Result>[] = [];
  readonly #idle: (() => void)[] = [];
  #running = 0;
  #scheduled = false;

  /** `run` answers one result per item, in the items' order, or rejects for the whole batch. */
  constructor(
    run: (items: Item[]) => Promise<Result[]>,
    { maxItems, concurrency, name = 'batch' }: { maxItems: number; concurrency: number; name?: string },
  ) {
    this.#name = name;
    this.#run = run;
    this.#maxItems = maxItems;
    this.#concurrency = concurrency;
  }

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every call submitted so far has settled. */
  idle(): Promise<void> {
    if (this.#running === 0 && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #schedule(): void {
    if (this.#running === 0 && this.#queue.length === 0) for (const resolve of this.#idle.splice(0)) resolve();
    if (this.#scheduled || this.#running >= this.#concurrency || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      while (this.#running < this.#concurrency && this.#queue.length > 0) {
        const calls = this.#queue.splice(0, this.#maxItems);
        this.#running += 1;
        void this.#settle(calls).finally(() => {
          this.#running -= 1;
          this.#schedule();
        });
      }
    });
  }

  async #settle(calls: Call<Item, Result>[]): Promise<void> {
    try {
      const results = await this.#runRetried(calls.map((call) => call.item));
      for (const [index, call] of calls.entries()) call.resolve(results[index] as Result);
    } catch (error) {
      if (calls.length > 1 && isDataError(error)) {
        // One after the other, in the order the calls came: comments keep their order in the thread.
        for (const call of calls) await this.#settle([call]);
        return;
      }
      for (const call of calls) call.reject(error);
    }
  }

  async #runRetried(items: Item[]): Promise<Result[]> {
    const started = performance.now();
    try {
      return await this.#run(items);
    } catch (error) {
      if (sqlState(error) !== DEADLOCK_DETECTED) throw error;
      return await this.#run(items);
    } finally {
      batchRan(this.#name, items.length, (performance.now() - started) / 1000);
    }
  }
}

interface Call<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

const DEADLOCK_DETECTED = '40P01';

/** Whether PostgreSQL refused a statement for the data it was given (SQLSTATE class 22 or 23), not for its own state. */
function isDataError(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

/** The SQLSTATE of a PostgreSQL error, if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
