import { Low } from 'lowdb';
import type { z } from 'zod';
import { collectionDocument, type CollectionDocument } from './documents.ts';
import { DurableJsonFile } from './durable-json-file.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

/** A list kept in memory, oldest first, each item found by its key, with the lowdb file that keeps its snapshot. */
export class Collection<Item extends object> implements SnapshotTarget {
  readonly #file: Low<CollectionDocument<Item>>;
  readonly #keyOf: (item: Item) => string;
  readonly #byKey = new Map<string, Item>();

  private constructor(file: Low<CollectionDocument<Item>>, keyOf: (item: Item) => string) {
    this.#file = file;
    this.#keyOf = keyOf;
    for (const item of file.data.items) this.#byKey.set(keyOf(item), item);
  }

  /** The list kept in `file`, empty when there is no file; rejects naming the file when it is damaged. */
  static async load<Item extends object>(file: string, item: z.ZodType<Item>, keyOf: (item: Item) => string): Promise<Collection<Item>> {
    const snapshot = new Low<CollectionDocument<Item>>(new DurableJsonFile(file, collectionDocument(item)), {
      format: 1,
      journalSeq: 0,
      items: [],
    });
    await snapshot.read();
    return new Collection(snapshot, keyOf);
  }

  get journalSeq(): number {
    return this.#file.data.journalSeq;
  }

  /** Throws when the key is taken. */
  add(item: Item): void {
    const key = this.#keyOf(item);
    if (this.#byKey.has(key)) throw new Error(`${key} appears twice`);
    this.#file.data.items.push(item);
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
    const index = this.#file.data.items.indexOf(this.#byKey.get(key) as Item);
    if (index < 0) throw new Error(`${key} does not exist`);
    this.#file.data.items[index] = item;
    this.#byKey.set(key, item);
  }

  /** Removes the item with this key, if any. */
  remove(key: string): void {
    const item = this.#byKey.get(key);
    if (!item) return;
    this.#file.data.items.splice(this.#file.data.items.indexOf(item), 1);
    this.#byKey.delete(key);
  }

  /** Copies of the items, oldest first. */
  oldestFirst(): Item[] {
    return this.#file.data.items.map((item) => ({ ...item }));
  }

  /** Copies of the items, newest first. */
  newestFirst(): Item[] {
    return this.oldestFirst().reverse();
  }

  async writeSnapshot(journalSeq: number): Promise<void> {
    this.#file.data.journalSeq = journalSeq;
    await this.#file.write();
  }
}
