import { constants } from 'node:fs';
import { open, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { corruptFile, journalRecord, validated, type JournalRecord } from './documents.ts';
import { namesIn, PRIVATE_FILE, syncDirectory } from './files.ts';

const GENERATION_FILE = /^(\d{10})\.jsonl$/;

/**
 * A generation file is created (never one that exists) for appending, each
 * write on disk when it returns (O_DSYNC: as if fdatasync followed it), so
 * that a batch costs one trip to the thread pool, not two.
 */
const SYNCED_APPEND = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | constants.O_DSYNC;

export function generationFile(directory: string, generation: number): string {
  return join(directory, `${String(generation).padStart(10, '0')}.jsonl`);
}

/** The journal's generations present in `directory`, oldest first. */
export async function listGenerations(directory: string): Promise<number[]> {
  return (await namesIn(directory))
    .map((name) => GENERATION_FILE.exec(name)?.[1])
    .filter((digits) => digits !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Deletes every generation older than `generation`, durably. */
export async function removeGenerationsBefore(directory: string, generation: number): Promise<void> {
  const old = (await listGenerations(directory)).filter((present) => present < generation);
  for (const present of old) await unlink(generationFile(directory, present));
  if (old.length > 0) await syncDirectory(directory);
}

/**
 * The records of one generation file, in order. An incomplete last line (no
 * newline: the write a crash interrupted, never acknowledged) is ignored; any
 * other line that is not a valid record rejects, naming the file and line.
 */
export async function readGeneration(file: string): Promise<{ record: JournalRecord; line: number }[]> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines.pop(); // what follows the last newline: empty, or the torn line
  return lines.map((text, index) => {
    const where = `line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw corruptFile(file, `${where} is not JSON (${(error as Error).message})`);
    }
    return { record: validated(journalRecord, value, file, where), line: index + 1 };
  });
}

interface Pending {
  text: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The append-only journal, with group commit: lines appended while a write
 * is in flight are written together by the next single synchronized write
 * (SYNCED_APPEND), so the cost of reaching the disk is shared by every
 * waiting writer.
 * It writes to one generation file at a time; `rotate` moves on to the next,
 * so that the older ones can be deleted once their records are in snapshots.
 * After a failed write every append rejects: what is on disk is then unknown,
 * and only reopening the store (which replays the journal) gets back to a
 * known state.
 */
export class Journal {
  readonly #directory: string;
  #generation: number;
  #handle: FileHandle;
  #bytes = 0;
  #queue: Pending[] = [];
  #rotations: Pending[] = [];
  #draining: Promise<void> | null = null;
  #failure: Error | null = null;
  #closed = false;

  private constructor(directory: string, generation: number, handle: FileHandle) {
    this.#directory = directory;
    this.#generation = generation;
    this.#handle = handle;
  }

  /** Starts a new generation file (it must not exist yet) in `directory`. */
  static async create(directory: string, generation: number): Promise<Journal> {
    return new Journal(directory, generation, await Journal.#createFile(directory, generation));
  }

  static async #createFile(directory: string, generation: number): Promise<FileHandle> {
    const handle = await open(generationFile(directory, generation), SYNCED_APPEND, PRIVATE_FILE);
    await syncDirectory(directory);
    return handle;
  }

  /** The generation appended to now. */
  get generation(): number {
    return this.#generation;
  }

  /** Bytes acknowledged in the current generation. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Set once a write failed: the journal takes no more lines. */
  get failure(): Error | null {
    return this.#failure;
  }

  /**
   * Appends `text` (whole lines, or '' to wait for what was appended before)
   * and resolves once it is on disk.
   */
  append(text: string): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closed) return Promise.reject(new Error('The store is closed.'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ text, resolve, reject });
      this.#drain();
    });
  }

  /** Moves on to the next generation file; resolves once it exists on disk. */
  rotate(): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#rotations.push({ text: '', resolve, reject });
      this.#drain();
    });
  }

  /** Waits for every append to settle, then closes the file. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#draining) await this.#draining;
    await this.#handle.close();
  }

  #drain(): void {
    this.#draining ??= this.#writeAll().finally(() => {
      this.#draining = null;
    });
  }

  async #writeAll(): Promise<void> {
    while (!this.#failure && (this.#queue.length > 0 || this.#rotations.length > 0)) {
      // A rotation waits for the batch in flight only, not for the lines queued behind it.
      const rotating = this.#rotations.length > 0;
      const batch = rotating ? this.#rotations : this.#queue;
      if (rotating) this.#rotations = [];
      else this.#queue = [];
      try {
        if (rotating) await this.#nextGeneration();
        else await this.#write(batch);
      } catch (error) {
        this.#failure = new Error(`The store's journal could not be written; reopen the store to recover.`, { cause: error });
        for (const pending of [...batch, ...this.#queue, ...this.#rotations]) pending.reject(this.#failure);
        this.#queue = [];
        this.#rotations = [];
        return;
      }
      for (const pending of batch) pending.resolve();
    }
  }

  async #write(batch: Pending[]): Promise<void> {
    const data = Buffer.from(batch.map((pending) => pending.text).join(''));
    await this.#handle.writeFile(data);
    this.#bytes += data.length;
  }

  async #nextGeneration(): Promise<void> {
    const handle = await Journal.#createFile(this.#directory, this.#generation + 1);
    await this.#handle.close();
    this.#handle = handle;
    this.#generation += 1;
    this.#bytes = 0;
  }
}
