import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { LineFile } from '../line-files/line-file.ts';
import { etagOf } from '../http/etag.ts';
import type { Encoding } from './encoding.ts';

/**
 * The build's list of the files it wrote under `dist/client`, with what the
 * front server needs to answer each without opening it: its ETag and, for
 * each body (`page.html`, `page.html.br`, `page.html.gz`), the size and
 * modification time (whole seconds) it had when the build wrote it. A body
 * whose size or time differs on disk was changed since, and is not trusted
 * to the ETag.
 *
 * One line a file, sorted by the file's name, so that the server finds a
 * file by halves, reading its lines where they lie (`FileManifest`), with
 * no object for each of an archive's tens of thousands of files:
 *
 *     "<file, as a JSON string>" TAB ["<etag>", size, second, br size, br second, gzip size, gzip second] LF
 *
 * with null for an encoding not written. A JSON string holds no tab or line
 * feed of its own, so each ends its field.
 */
const FILE_MANIFEST = 'static-files.tsv';

/** Where the build puts the manifest: beside `dist/client`, never served. */
export function manifestPath(clientDir: string): string {
  return join(clientDir, '..', FILE_MANIFEST);
}

/** A body as the build left it. */
export interface BodyStamp {
  size: number;
  mtimeMs: number;
}

export interface ManifestFile {
  /** Relative to `dist/client`, with `/` between folders. */
  file: string;
  etag: string;
  bodies: { identity: BodyStamp } & Partial<Record<Encoding, BodyStamp>>;
}

/** Precompressed siblings written by the build (`page.html.br`, `page.html.gz`). */
export const ENCODED_SUFFIX: Readonly<Record<Encoding, string>> = { br: '.br', gzip: '.gz' };

const ENCODINGS = Object.keys(ENCODED_SUFFIX) as Encoding[];

/** The built files under `clientDir`, without their precompressed siblings, relative and with `/` between folders. */
export async function builtFiles(clientDir: string): Promise<string[]> {
  const entries = await readdir(clientDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.br') && !entry.name.endsWith('.gz'))
    .map((entry) => relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

async function stampOf(path: string): Promise<BodyStamp | undefined> {
  const info = await stat(path).catch(() => undefined);
  return info ? { size: info.size, mtimeMs: info.mtimeMs } : undefined;
}

/** A file's entry from its ETag and the stamps of its bodies as they are on disk (`undefined`: not there). */
export function manifestEntry(
  file: string,
  etag: string,
  identity: BodyStamp,
  encoded: Readonly<Partial<Record<Encoding, BodyStamp | undefined>>>,
): ManifestFile {
  const bodies: ManifestFile['bodies'] = { identity };
  for (const encoding of ENCODINGS) {
    const stamp = encoded[encoding];
    if (stamp) bodies[encoding] = stamp;
  }
  return { file, etag, bodies };
}

/** One file's entry, read from disk as it is now. */
async function describeFile(clientDir: string, file: string): Promise<ManifestFile | undefined> {
  const path = join(clientDir, file);
  const identity = await readFile(path).catch(() => undefined);
  const identityStamp = identity && (await stampOf(path));
  if (!identity || !identityStamp) return undefined;
  const encoded: Partial<Record<Encoding, BodyStamp | undefined>> = {};
  for (const encoding of ENCODINGS) encoded[encoding] = await stampOf(path + ENCODED_SUFFIX[encoding]);
  return manifestEntry(file, etagOf(identity), identityStamp, encoded);
}

/** A body's time as the manifest keeps it: the second it was modified in. */
export function secondOf(mtimeMs: number): number {
  return Math.floor(mtimeMs / 1000);
}

/** An entry's line, without its line feed. */
function lineOf({ file, etag, bodies }: ManifestFile): string {
  const stamps = [bodies.identity, ...ENCODINGS.map((encoding) => bodies[encoding])].flatMap((stamp) =>
    stamp ? [stamp.size, secondOf(stamp.mtimeMs)] : [null, null],
  );
  return `${JSON.stringify(file)}\t${JSON.stringify([etag, ...stamps])}`;
}

/** The lines of `files`, sorted by name, as one buffer. */
function manifestBytes(files: readonly ManifestFile[]): Buffer {
  const sorted = [...files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return Buffer.from(sorted.map((entry) => `${lineOf(entry)}\n`).join(''));
}

/** Writes the manifest of `clientDir` whole, then moves it into place, so that a reader never sees half of one. */
export async function writeFileManifest(clientDir: string, files: readonly ManifestFile[]): Promise<void> {
  const target = manifestPath(clientDir);
  await writeFile(`${target}.tmp`, manifestBytes(files));
  await rename(`${target}.tmp`, target);
}

/** The manifest's lines, or those of one made now from the files themselves when the build wrote none. */
async function readManifestLines(clientDir: string): Promise<LineFile> {
  try {
    return LineFile.open(manifestPath(clientDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const described = await Promise.all((await builtFiles(clientDir)).map((file) => describeFile(clientDir, file)));
  return LineFile.of(manifestBytes(described.filter((file) => file !== undefined)));
}

/** Lines a search reads at once, once it has halved its way to them. */
const LINES_PER_BLOCK = 32;

type StampFields = [string, ...(number | null)[]];

/** A line's file name: the JSON string before its tab. */
function nameOf(line: string): string {
  return JSON.parse(line.slice(0, line.indexOf('\t'))) as string;
}

/**
 * The manifest as the server holds it: its lines where they lie (LineFile),
 * and the name on every LINES_PER_BLOCK-th line, which a search halves down
 * to the one block of lines that may hold a name; `find` then reads that
 * block and parses the one line it is after.
 */
export class FileManifest {
  readonly #lines: LineFile;
  /** The name on each block's first line, in order. */
  readonly #firstNames: string[] = [];

  private constructor(lines: LineFile) {
    this.#lines = lines;
    let previous: string | undefined;
    let at = 0;
    for (const line of lines) {
      const name = nameOf(line);
      if (previous !== undefined && !(previous < name)) {
        lines.close();
        throw new Error(`${FILE_MANIFEST}: line ${at + 1} is out of order`);
      }
      if (at % LINES_PER_BLOCK === 0) this.#firstNames.push(name);
      previous = name;
      at += 1;
    }
  }

  /** The manifest of `clientDir`, or one made now from the files themselves when the build wrote none. */
  static async read(clientDir: string): Promise<FileManifest> {
    return new FileManifest(await readManifestLines(clientDir));
  }

  get size(): number {
    return this.#lines.size;
  }

  /** The entry of `file`, or undefined when the build wrote none. */
  find(file: string): ManifestFile | undefined {
    let low = 0;
    let high = this.#firstNames.length - 1;
    // The last block whose first name is not after `file`.
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.#firstNames[middle] as string) <= file) low = middle;
      else high = middle - 1;
    }
    if (this.#firstNames.length === 0 || file < (this.#firstNames[low] as string)) return undefined;
    const prefix = `${JSON.stringify(file)}\t`;
    const from = low * LINES_PER_BLOCK;
    const line = this.#lines.lines(from, Math.min(this.size, from + LINES_PER_BLOCK)).find((candidate) => candidate.startsWith(prefix));
    return line === undefined ? undefined : entryOf(file, line.slice(prefix.length));
  }

  /** Every entry, in order. */
  *entries(): Generator<ManifestFile> {
    for (const line of this.#lines) yield entryOf(nameOf(line), line.slice(line.indexOf('\t') + 1));
  }

  /** Closes its file: a manifest replaced by a new build's. */
  close(): void {
    this.#lines.close();
  }
}

/** The entry of `file` from its line's fields after the tab. */
function entryOf(file: string, fields: string): ManifestFile {
  const [etag, ...stamps] = JSON.parse(fields) as StampFields;
  const stampAt = (at: number): BodyStamp | undefined => {
    const size = stamps[at];
    const second = stamps[at + 1];
    return typeof size === 'number' && typeof second === 'number' ? { size, mtimeMs: second * 1000 } : undefined;
  };
  const identity = stampAt(0);
  if (!identity) throw new Error(`${FILE_MANIFEST}: ${file} has no body`);
  return manifestEntry(file, etag, identity, Object.fromEntries(ENCODINGS.map((encoding, at) => [encoding, stampAt(2 * at + 2)])));
}
