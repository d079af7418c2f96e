import { LRUCache } from 'lru-cache';
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
  readonly #held: LRUCache<string, HeldBody>;
  readonly #seenOnce = new SeenOnce();
  #hits = 0;
  #misses = 0;

  constructor(budgetBytes: number) {
    // lru-cache sizes are positive: an empty body counts one byte, and a budget of none holds nothing larger.
    this.#held = new LRUCache<string, HeldBody>({
      maxSize: Math.max(1, budgetBytes),
      sizeCalculation: (held) => Math.max(1, held.body.length),
    });
  }

  get bytes(): number {
    return this.#held.calculatedSize;
  }

  get(path: string): HeldBody | undefined {
    const held = this.#held.get(path);
    if (held) this.#hits += 1;
    else this.#misses += 1;
    return held;
  }

  /** What it holds and how often a body was found in it, for the metrics. */
  stats(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.#held.size, bytes: this.#held.calculatedSize, hits: this.#hits, misses: this.#misses };
  }

  /** A body just read from disk and found current: held if it was asked for before and fits the budget. */
  offer(path: string, body: Buffer, checkedAt: number): void {
    if (this.#held.has(path) || this.#seenOnce.again(path)) this.#held.set(path, { body, checkedAt });
  }

  drop(path: string): void {
    this.#held.delete(path);
  }

  clear(): void {
    this.#held.clear();
    this.#seenOnce.clear();
  }
}
