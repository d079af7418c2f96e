/**
 * Claims held in memory: the embedded store is one process's (lock.ts), so
 * a lease needs no record. A queue (newsletter issues, deliveries) claims its
 * due items through one of these, and ends their leases as it settles them.
 */
export class Leases {
  /** Claimed keys: until when (epoch milliseconds) no other claim gets them. */
  readonly #until = new Map<string, number>();

  /** Up to `limit` of the items of `keys`, in order, that are due and not leased, each leased now for `leaseMs`. */
  claim<Item extends { dueAt: string }>(
    keys: Iterable<string>,
    find: (key: string) => Item | null,
    limit: number,
    leaseMs: number,
  ): Item[] {
    const at = Date.now();
    const claimed: Item[] = [];
    for (const key of keys) {
      if (claimed.length >= limit) break;
      const item = find(key);
      if (!item || Date.parse(item.dueAt) > at || (this.#until.get(key) ?? 0) > at) continue;
      this.#until.set(key, at + leaseMs);
      claimed.push(item);
    }
    return claimed;
  }

  /** Ends the leases of these keys. */
  end(keys: readonly string[]): void {
    for (const key of keys) this.#until.delete(key);
  }
}
