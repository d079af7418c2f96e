import { readFile } from 'node:fs/promises';
import { Low, type Adapter } from 'lowdb';
import type { z } from 'zod';
import { corruptFile, validated } from './documents.ts';
import { replaceDurably } from './files.ts';
import { copiedForWriting, jsonPieces } from './json-pieces.ts';

/**
 * A lowdb adapter for one JSON document: reads check the document against its
 * schema and reject naming the file (never changing it); writes replace the
 * file durably, one at a time, in the order they were asked for.
 */
class DurableJsonFile<T> implements Adapter<T> {
  readonly #file: string;
  readonly #schema: z.ZodType<T>;
  #lastWrite: Promise<unknown> = Promise.resolve();

  constructor(file: string, schema: z.ZodType<T>) {
    this.#file = file;
    this.#schema = schema;
  }

  /** The document, or null when the file does not exist. */
  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw corruptFile(this.#file, `not JSON (${(error as Error).message})`);
    }
    return validated(this.#schema, value, this.#file);
  }

  write(data: T): Promise<void> {
    return this.writeSized(data).then(() => undefined);
  }

  /**
   * Copies `data` at once (later changes to it are not written; see
   * `copiedForWriting` for what the copy asks of it), then replaces the file
   * after any earlier write, serializing it piece by piece as it goes.
   * Resolves with the bytes written.
   */
  writeSized(data: T): Promise<number> {
    const copy = copiedForWriting(data as Readonly<Record<string, unknown>>);
    const written = this.#lastWrite.then(() => replaceDurably(this.#file, jsonPieces(copy)));
    // A failed write is reported to its caller; the next one still runs.
    this.#lastWrite = written.catch(() => undefined);
    return written;
  }
}

/** A lowdb document kept in a DurableJsonFile, whose `writeSized` tells a snapshot's size. */
export type SnapshotDocument<T> = Low<T> & { readonly adapter: DurableJsonFile<T> };

/** The lowdb document of `file`, holding `empty` until read or written. */
export function snapshotDocument<T>(file: string, schema: z.ZodType<T>, empty: T): SnapshotDocument<T> {
  const adapter = new DurableJsonFile(file, schema);
  return Object.assign(new Low(adapter, empty), { adapter });
}
