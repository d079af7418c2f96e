import type { z } from 'zod';
import { collectionDocument, type CollectionDocument } from './documents.ts';
import { snapshotDocument, type SnapshotDocument } from './durable-json-file.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

/**
 * A list kept in memory, oldest first, each item found by its key, with the
 * lowdb file that keeps its snapshot. Items are replaced, never changed in
 * place. Adding, finding, replacing and removing an item take the same time
 * however long the list is (a Map keeps its keys in insertion order).
 */
export class Collection<Item extends object> implements SnapshotTarget {
  readonly #file: SnapshotDocument<CollectionDocument<Item>>;
  readonly #keyOf: (item: Item) => string;
  readonly #byKey = new Map<string, Item>();

  private constructor(file: SnapshotDocument<CollectionDocument<Item>>, keyOf: (item: Item) => string) {
    this.#file = file;
    this.#keyOf = keyOf;
    for (const item of file.data.items) this.#byKey.set(keyOf(item), item);
    file.data.items = [];
  }

  /** The list kept in `file`, empty when there is no file; rejects naming the file when it is damaged. */
  static async load<Item extends object>(file: string, item: z.ZodType<Item>, keyOf: (item: Item) => string): Promise<Collection<Item>> {
    const snapshot = snapshotDocument<CollectionDocument<Item>>(file, collectionDocument(item), { format: 1, journalSeq: 0, items: [] });
    await snapshot.read();
    return new Collection(snapshot, keyOf);
  }

  get journalSeq(): number {
    return this.#file.data.journalSeq;
  }

  get size(): number {
    return this.#byKey.size;
  }

  /** Throws when the key is taken. */
  add(item: Item): void {
    const key = this.#keyOf(item);
    if (this.#byKey.has(key)) throw new Error(`${key} appears twice`);
    this.#byKey.set(key, item);
  }

  /** A copy of the item with this key, or null. */
  find(key: string): Item | null {
    const item = this.#byKey.get(key);
    return item ? { ...item } : null;
  }

  /** Puts `item` in the place of the one with its key; throws when there is none. */
  replace(item: Item): void {
    const key = this.#keyOf(item);
    if (!this.#byKey.has(key)) throw new Error(`${key} does not exist`);
    this.#byKey.set(key, item);
  }

  /** Removes the item with this key, if any. */
  remove(key: string): void {
    this.#byKey.delete(key);
  }

  /** Copies of the items, oldest first. */
  oldestFirst(): Item[] {
    return Array.from(this.#byKey.values(), (item) => ({ ...item }));
  }

  /** Copies of the items, newest first. */
  newestFirst(): Item[] {
    return this.oldestFirst().reverse();
  }

  writeSnapshot(journalSeq: number): Promise<number> {
    this.#file.data = { format: 1, journalSeq, items: [...this.#byKey.values()] };
    // The file copies the list before this returns: it need not be kept.
    const written = this.#file.adapter.writeSized(this.#file.data);
    this.#file.data.items = [];
    return written;
  }
}
