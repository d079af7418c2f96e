/** How many keys asked for once are remembered, by default. */
const REMEMBERED = 4096;

/**
 * Keys asked for once among the last `limit` distinct ones, remembered by
 * key only: what is asked for again is worth keeping in memory, while a
 * crawler walking the whole archive once pushes nothing out.
 */
export class SeenOnce {
  readonly #keys = new Set<string>();
  readonly #limit: number;

  constructor(limit = REMEMBERED) {
    this.#limit = limit;
  }

  /** Whether `key` was asked for once before (it is then forgotten); otherwise remembers it, the oldest forgotten past the limit. */
  again(key: string): boolean {
    if (this.#keys.delete(key)) return true;
    this.#keys.add(key);
    if (this.#keys.size > this.#limit) this.#keys.delete(this.#keys.values().next().value ?? '');
    return false;
  }

  clear(): void {
    this.#keys.clear();
  }
}
