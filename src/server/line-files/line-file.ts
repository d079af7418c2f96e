import { closeSync, openSync, readSync } from 'node:fs';

const LINE_FEED = 0x0a;

/** Bytes read at a time while a file is first read through, and while its lines are iterated. */
const CHUNK_BYTES = 256 * 1024;

/** Where a line file's bytes are: an open file, or a buffer (a table made in memory). */
interface Bytes {
  read(start: number, end: number): Buffer;
  close(): void;
}

function fileBytes(fd: number): Bytes {
  return {
    read(start, end) {
      const bytes = Buffer.allocUnsafe(end - start);
      let done = 0;
      while (done < bytes.length) {
        const read = readSync(fd, bytes, done, bytes.length - done, start + done);
        if (read === 0) throw new Error('A line file is shorter than when it was opened');
        done += read;
      }
      return bytes;
    },
    close() {
      closeSync(fd);
    },
  };
}

/**
 * A text file of lines, read a line at a time where it lies, for the tables
 * of an archive's size the server looks things up in (the built files'
 * manifest, the content index): it holds four bytes a line (where each
 * starts) rather than the lines, which an archive has tens of thousands of.
 * The file is read through once when opened, and stays open: a build that
 * replaces it leaves this one readable as it was until it is closed. A
 * line is one synchronous read of a few hundred bytes, which the operating
 * system answers from its page cache once the file has been read through;
 * a lookup's caller keeps what it reads most (an LRU) to spare even that.
 */
export class LineFile {
  readonly #bytes: Bytes;
  /** Line `i` spans `[starts[i], starts[i + 1] - 1)`, its line feed excluded. */
  readonly #starts: Uint32Array;

  private constructor(bytes: Bytes, starts: number[]) {
    this.#bytes = bytes;
    this.#starts = Uint32Array.from(starts);
  }

  /** The lines of the file at `path` (what follows the last line feed is not a line); rejects as `openSync` does. */
  static open(path: string): LineFile {
    const fd = openSync(path, 'r');
    try {
      const starts = [0];
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      let offset = 0;
      for (let read = readSync(fd, chunk, 0, CHUNK_BYTES, 0); read > 0; read = readSync(fd, chunk, 0, CHUNK_BYTES, offset)) {
        for (let at = chunk.indexOf(LINE_FEED); at !== -1 && at < read; at = chunk.indexOf(LINE_FEED, at + 1)) starts.push(offset + at + 1);
        offset += read;
      }
      return new LineFile(fileBytes(fd), starts);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** The lines of `text`, held in memory. */
  static of(text: Buffer): LineFile {
    const starts = [0];
    for (let at = text.indexOf(LINE_FEED); at !== -1; at = text.indexOf(LINE_FEED, at + 1)) starts.push(at + 1);
    return new LineFile({ read: (start, end) => text.subarray(start, end), close: () => undefined }, starts);
  }

  get size(): number {
    return this.#starts.length - 1;
  }

  /** Line `at` (from 0), without its line feed. */
  line(at: number): string {
    return this.lines(at, at + 1)[0] as string;
  }

  /** Lines `from` to `to` (excluded), with one read. */
  lines(from: number, to: number): string[] {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to > this.size || from >= to) {
      throw new RangeError(`No lines ${from} to ${to} among ${this.size}`);
    }
    const start = this.#starts[from] as number;
    const end = (this.#starts[to] as number) - 1;
    return this.#bytes.read(start, end).toString('utf8').split('\n');
  }

  *[Symbol.iterator](): Generator<string> {
    const step = Math.max(1, Math.floor(CHUNK_BYTES / 512));
    for (let from = 0; from < this.size; from += step) yield* this.lines(from, Math.min(this.size, from + step));
  }

  close(): void {
    this.#bytes.close();
  }
}
