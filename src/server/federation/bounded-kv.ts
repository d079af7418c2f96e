import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import { LRUCache } from 'lru-cache';

/** Entries kept at most: remote documents and keys, activity ids already handled, each small but many. */
const MOST_ENTRIES = 10_000;
/** Bytes kept at most, counted as each value's JSON: a remote document may weigh up to outbound.ts's cap. */
const MOST_BYTES = 64 * 1024 * 1024;

interface Held {
  key: KvKey;
  value: unknown;
}

/**
 * Fedify's key-value store (its caches of remote documents and keys, and
 * the ids of activities already handled) in this process's memory, bounded
 * in entries and bytes: the least recently used go first, and each entry
 * expires with its time to live. Fedify's MemoryKvStore drops an expired
 * entry only when it is asked for again, so that activities naming ever new
 * keys would grow it without end.
 */
export class BoundedKvStore implements KvStore {
  readonly #held = new LRUCache<string, Held>({
    max: MOST_ENTRIES,
    maxSize: MOST_BYTES,
    sizeCalculation: ({ value }) => Math.max(1, JSON.stringify(value ?? null).length),
  });

  get<T = unknown>(key: KvKey): Promise<T | undefined> {
    return Promise.resolve(this.#held.get(JSON.stringify(key))?.value as T | undefined);
  }

  set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    // Rounded to hours as Fedify's own store does: a time to live given in days needs no calendar.
    const ttl = options?.ttl?.round({ largestUnit: 'hour' }).total('millisecond');
    // One larger than the whole budget is not kept (lru-cache's rule), as a cache may refuse.
    this.#held.set(JSON.stringify(key), { key, value }, ttl === undefined ? {} : { ttl: Math.max(1, Math.round(ttl)) });
    return Promise.resolve();
  }

  delete(key: KvKey): Promise<void> {
    this.#held.delete(JSON.stringify(key));
    return Promise.resolve();
  }

  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    if (!isDeepStrictEqual(await this.get(key), expectedValue)) return false;
    if (newValue === undefined) await this.delete(key);
    else await this.set(key, newValue, options);
    return true;
  }

  /** The entries under `prefix` as they are now, most recently used first. */
  list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const held = [...this.#held.values()].filter(({ key }) => !prefix || prefix.every((part, at) => key[at] === part));
    return Readable.from(held);
  }
}
