import { SeenOnce } from './seen-once.ts';

/** A body held in memory, and when it was last found current on disk. */
interface HeldBody {
  body: Buffer;
  checkedAt: number;
}

/**
 * The bodies of built files asked for often, held in memory under a byte
 * budget, the least recently used out first. A body is held from its second
 * read among the last distinct ones SeenOnce remembers: a crawler walking the whole
 * archive once pushes nothing out, while the pages readers come back to stay.
 */
export class HotBodies {
  readonly #budget: number;
  readonly #held = new Map<string, HeldBody>();
  readonly #seenOnce = new SeenOnce();
  #bytes = 0;
  #hits = 0;
  #misses = 0;

  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(path: string): HeldBody | undefined {
    const held = this.#held.get(path);
    if (held) {
      this.#hits += 1;
      this.#held.delete(path);
      this.#held.set(path, held);
    } else this.#misses += 1;
    return held;
  }

  /** What it holds and how often a body was found in it, for the metrics. */
  stats(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.#held.size, bytes: this.#bytes, hits: this.#hits, misses: this.#misses };
  }

  /** A body just read from disk and found current: held if it was asked for before and fits the budget. */
  offer(path: string, body: Buffer, checkedAt: number): void {
    if (this.#held.has(path)) {
      this.drop(path);
    } else if (!this.#seenOnce.again(path)) return;
    if (body.length > this.#budget) return;
    this.#held.set(path, { body, checkedAt });
    this.#bytes += body.length;
    for (const [oldest, { body: dropped }] of this.#held) {
      if (this.#bytes <= this.#budget) break;
      this.#held.delete(oldest);
      this.#bytes -= dropped.length;
    }
  }

  drop(path: string): void {
    const held = this.#held.get(path);
    if (!held) return;
    this.#held.delete(path);
    this.#bytes -= held.body.length;
  }

  clear(): void {
    this.#held.clear();
    this.#seenOnce.clear();
    this.#bytes = 0;
  }
}
