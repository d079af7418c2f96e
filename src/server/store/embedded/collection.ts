import { Low } from 'lowdb';
import type { z } from 'zod';
import { collectionDocument, type CollectionDocument } from './documents.ts';
import { DurableJsonFile } from './durable-json-file.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

/** A list kept in memory, oldest first, with the lowdb file that keeps its snapshot. */
export class Collection<Item extends object> implements SnapshotTarget {
  readonly #file: Low<CollectionDocument<Item>>;

  private constructor(file: Low<CollectionDocument<Item>>) {
    this.#file = file;
  }

  /** The list kept in `file`, empty when there is no file; rejects naming the file when it is damaged. */
  static async load<Item extends object>(file: string, item: z.ZodType<Item>): Promise<Collection<Item>> {
    const snapshot = new Low<CollectionDocument<Item>>(new DurableJsonFile(file, collectionDocument(item)), {
      format: 1,
      journalSeq: 0,
      items: [],
    });
    await snapshot.read();
    return new Collection(snapshot);
  }

  get journalSeq(): number {
    return this.#file.data.journalSeq;
  }

  add(item: Item): void {
    this.#file.data.items.push(item);
  }

  /** Copies of the items, newest first. */
  newestFirst(): Item[] {
    return this.#file.data.items.map((item) => ({ ...item })).reverse();
  }

  async writeSnapshot(journalSeq: number): Promise<void> {
    this.#file.data.journalSeq = journalSeq;
    await this.#file.write();
  }
}
