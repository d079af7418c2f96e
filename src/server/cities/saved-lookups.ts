import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The city index's lookups (its posting lists, the alternate names'
 * entries: city-index.ts, alternate-names.ts) as the build works them out,
 * saved beside the index so that the server's first city search reads them
 * as views over one buffer instead of working them out again: most of a
 * load's time. They are named by the digest of the index text they were
 * worked out from, and lookups of any other text are not used: the server
 * then works them out itself, as it does with none saved.
 *
 * The file: MAGIC, a word written in this machine's byte order (a file of
 * the other order is not read), the index's SHA-256, the number of arrays;
 * then each Int32Array as its length and its values.
 */

/** Where the build (scripts/build-city-index.ts) writes the lookups, beside the index (index-file.ts). */
export const LOOKUPS_PATH = 'data/cities/lookups.bin';

const MAGIC = 'LHC1';
const BYTE_ORDER = 0x01020304;
const DIGEST_BYTES = 32;
/** MAGIC, the byte order word, the digest, the count of arrays. */
const HEADER_BYTES = 4 + 4 + DIGEST_BYTES + 4;

/** The digest that names an index text's lookups. */
export function indexDigest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Collects arrays in the order a loader will read them, then writes them as one file's bytes. */
export class LookupsWriter {
  readonly #arrays: Int32Array[] = [];

  add(...arrays: Int32Array[]): void {
    this.#arrays.push(...arrays);
  }

  bytes(digest: Buffer): Buffer {
    const size = HEADER_BYTES + this.#arrays.reduce((sum, array) => sum + 4 + array.byteLength, 0);
    const bytes = Buffer.alloc(size);
    bytes.write(MAGIC, 0, 'latin1');
    new Int32Array(bytes.buffer, bytes.byteOffset + 4, 1)[0] = BYTE_ORDER;
    digest.copy(bytes, 8);
    bytes.writeUInt32LE(this.#arrays.length, 8 + DIGEST_BYTES);
    let at = HEADER_BYTES;
    for (const array of this.#arrays) {
      bytes.writeUInt32LE(array.length, at);
      bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at + 4);
      at += 4 + array.byteLength;
    }
    return bytes;
  }
}

/** Hands out a file's arrays in the order they were written, each a view over its bytes. */
export class LookupsReader {
  readonly #bytes: Buffer;
  #at = HEADER_BYTES;
  #left: number;

  private constructor(bytes: Buffer, count: number) {
    this.#bytes = bytes;
    this.#left = count;
  }

  /** A reader of `bytes`, or undefined when they are not lookups of the index whose digest is `digest`, in this byte order. */
  static of(bytes: Buffer, digest: Buffer): LookupsReader | undefined {
    if (bytes.length < HEADER_BYTES || bytes.toString('latin1', 0, 4) !== MAGIC) return undefined;
    // Views need their offset a multiple of 4: a Buffer from the pool may start anywhere.
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : Buffer.from(bytes);
    if (new Int32Array(aligned.buffer, aligned.byteOffset + 4, 1)[0] !== BYTE_ORDER) return undefined;
    if (!aligned.subarray(8, 8 + DIGEST_BYTES).equals(digest)) return undefined;
    return new LookupsReader(aligned, aligned.readUInt32LE(8 + DIGEST_BYTES));
  }

  /** The next array; throws past the last or past the bytes, as a file cut short would. */
  next(): Int32Array {
    if (this.#left === 0) throw new Error('The saved city lookups hold fewer arrays than the index reads');
    const length = this.#bytes.readUInt32LE(this.#at);
    const start = this.#at + 4;
    if (start + length * 4 > this.#bytes.length) throw new Error('The saved city lookups are cut short');
    this.#at = start + length * 4;
    this.#left -= 1;
    return new Int32Array(this.#bytes.buffer, this.#bytes.byteOffset + start, length);
  }

  /** Whether every array written was read: a loader that read fewer reads another layout. */
  get done(): boolean {
    return this.#left === 0 && this.#at === this.#bytes.length;
  }
}

/** The lookups saved at `path` for the index whose digest is `digest`; undefined when there are none, or none of that index. */
export function readLookups(path: string, digest: Buffer): LookupsReader | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  return LookupsReader.of(bytes, digest);
}
