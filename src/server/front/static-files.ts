import { watch, type FSWatcher, type ReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { mediaTypeOf } from '../http/media-types.ts';
import type { EncodedBodies, Encoding } from './encoding.ts';
import { ENCODED_SUFFIX, FileManifest, manifestPath, secondOf, type BodyStamp, type ManifestFile } from './file-manifest.ts';
import { HotBodies } from './hot-bodies.ts';

/** A body's size and modification time as the server compares them: to the second (`sameStamp`). */
interface HeldStamp {
  size: number;
  second: number;
}

type HeldStamps = { identity: HeldStamp } & Partial<Record<Encoding, HeldStamp>>;

function heldStamp({ size, mtimeMs }: BodyStamp): HeldStamp {
  return { size, second: secondOf(mtimeMs) };
}

/**
 * A built file the server answers: what the manifest says of it, made when
 * the file is asked for and kept while it is asked for often
 * (REMEMBERED_FILES). It keeps only what cannot be worked out again: the
 * rest (its path, its Cache-Control, whether it is a page) are getters.
 */
export class StaticFile {
  readonly #clientDir: string;
  /** Relative to the client folder, with `/` between folders. */
  readonly file: string;
  readonly contentType: string;
  readonly etag: string;
  readonly bodies: HeldStamps;

  constructor(clientDir: string, entry: ManifestFile) {
    this.#clientDir = clientDir;
    this.file = entry.file;
    this.contentType = mediaTypeOf(entry.file);
    this.etag = entry.etag;
    const bodies: HeldStamps = { identity: heldStamp(entry.bodies.identity) };
    for (const encoding of Object.keys(ENCODED_SUFFIX) as Encoding[]) {
      const stamp = entry.bodies[encoding];
      if (stamp) bodies[encoding] = heldStamp(stamp);
    }
    this.bodies = bodies;
  }

  /** The identity body's path; the encoded ones are beside it. */
  get path(): string {
    return join(this.#clientDir, this.file);
  }

  get cacheControl(): string {
    return this.file.startsWith('_astro/') ? CACHE_CONTROL.hashedAsset : CACHE_CONTROL.page;
  }

  /** A page or a Markdown twin, as opposed to an asset. */
  get isDocument(): boolean {
    return this.file.endsWith('.html') || this.file.endsWith('.md');
  }
}

/**
 * What reading one body of a file found: the body whole, or, past
 * LARGEST_HELD_BYTES, a stream of it (its file closed once the stream ends or
 * is destroyed, which the caller must see to).
 */
export type BodyRead = { body: Buffer } | { stream: ReadStream; size: number } | { changed: true } | { gone: true };

/** A body larger than this is never held in memory, nor read whole: it is streamed from disk each time. */
const LARGEST_HELD_BYTES = 1024 * 1024;

/** A body held in memory, or a file found unchanged, is compared with its file on disk again once this long has passed. */
const RECHECK_MS = 2000;

/**
 * URL paths whose file is kept made (`StaticFile`) or known not built, and
 * files whose last finding unchanged (`unchanged`) is remembered: the ones
 * read most, each a few hundred bytes.
 */
const REMEMBERED_FILES = 4096;

/** A page's file in its folder: `a/index.html` answers `/a` and `/a/`, never `/a/index.html`. */
const FOLDER_PAGE = 'index.html';

/** What a URL path that names no built file is remembered as. */
const NOT_BUILT = Symbol('not built');

/** A URL path without its trailing slash: what `#found` looks a file up by. */
function keyOf(urlPath: string): string {
  return urlPath.length > 1 && urlPath.endsWith('/') ? urlPath.slice(0, -1) : urlPath;
}

function isFolderPage(file: string): boolean {
  return file === FOLDER_PAGE || file.endsWith(`/${FOLDER_PAGE}`);
}

/**
 * Whether a body on disk is still the one the build described: the same
 * size, modified in the same second. Whole seconds, because copying a build
 * (cp -p, rsync, an image layer) keeps the time to the second at least, not
 * always to the nanosecond.
 */
function sameStamp(stamp: HeldStamp, size: number, mtimeMs: number): boolean {
  return stamp.size === size && stamp.second === secondOf(mtimeMs);
}

/**
 * The built client folder, answered from disk: the build's manifest says
 * what each file is, so start-up opens none of them, and a body is read when
 * asked for (asynchronously, never blocking the event loop). Bodies asked for
 * often are held in memory under a byte budget (HotBodies); everything else
 * is left to the operating system's page cache. A body whose size or time on
 * disk is not the manifest's was changed since the build: it is reported as
 * such, never served under the old ETag. A new manifest (a new build) is read
 * as soon as it is written, and drops every body held.
 */
export class StaticFiles {
  readonly #clientDir: string;
  readonly #hot: HotBodies;
  #manifest: FileManifest | undefined;
  /** The files asked for most by URL path (`keyOf`), made from the manifest's lines, or NOT_BUILT; emptied with each new manifest. */
  readonly #made = new LRUCache<string, StaticFile | typeof NOT_BUILT>({ max: REMEMBERED_FILES });
  /** URL paths the server answers otherwise (the not-found pages): never served as files. */
  readonly #withheld = new Set<string>();
  /** When each file read often was last found unchanged on disk: a file object of an older manifest falls out unread. */
  readonly #foundUnchangedAt = new LRUCache<StaticFile, number>({ max: REMEMBERED_FILES });
  #watcher: FSWatcher | undefined;
  #reloading: Promise<void> | undefined;

  private constructor(clientDir: string, cacheBytes: number) {
    this.#clientDir = clientDir;
    this.#hot = new HotBodies(cacheBytes);
  }

  static async open(clientDir: string, { cacheBytes }: { cacheBytes: number }): Promise<StaticFiles> {
    const files = new StaticFiles(clientDir, cacheBytes);
    await files.reload();
    files.#watch();
    return files;
  }

  get(urlPath: string): StaticFile | undefined {
    const key = keyOf(urlPath);
    return this.#withheld.has(key) ? undefined : this.#found(key, urlPath);
  }

  /** Takes a file out of the public ones and returns it with its bodies: the server answers it otherwise. */
  async take(urlPath: string): Promise<{ file: StaticFile; bodies: EncodedBodies } | undefined> {
    const key = keyOf(urlPath);
    const file = this.#found(key, urlPath);
    this.#withheld.add(key);
    if (!file) return undefined;
    const identity = await readFile(file.path).catch(() => undefined);
    if (!identity) return undefined;
    const bodies: EncodedBodies = { identity };
    for (const [encoding, suffix] of Object.entries(ENCODED_SUFFIX) as [Encoding, string][]) {
      const encoded = file.bodies[encoding] && (await readFile(file.path + suffix).catch(() => undefined));
      if (encoded) bodies[encoding] = encoded;
    }
    return { file, bodies };
  }

  /** The file `urlPath` names (`key` without its trailing slash): only a folder's page answers with a trailing slash too. */
  #found(key: string, urlPath: string): StaticFile | undefined {
    let file = this.#made.get(key);
    if (file === undefined) {
      file = this.#lookUp(key) ?? NOT_BUILT;
      this.#made.set(key, file);
    }
    if (file === NOT_BUILT) return undefined;
    return key === urlPath || isFolderPage(file.file) ? file : undefined;
  }

  /** The file under `key` in the manifest: the file of that name, else the folder's page; never a page by its file's name. */
  #lookUp(key: string): StaticFile | undefined {
    const name = key.slice(1);
    if (name === '') return this.#fromManifest(FOLDER_PAGE);
    if (isFolderPage(name)) return undefined;
    return this.#fromManifest(name) ?? this.#fromManifest(`${name}/${FOLDER_PAGE}`);
  }

  #fromManifest(name: string): StaticFile | undefined {
    const entry = this.#manifest?.find(name);
    return entry && new StaticFile(this.#clientDir, entry);
  }

  /** The bodies held in memory, for the metrics. */
  stats(): ReturnType<HotBodies['stats']> {
    return this.#hot.stats();
  }

  /** Reads the manifest again and forgets every body held: what a new build wrote is served from now on. */
  reload(): Promise<void> {
    this.#reloading ??= (async () => {
      try {
        const replaced = this.#manifest;
        this.#manifest = await FileManifest.read(this.#clientDir);
        replaced?.close();
        this.#made.clear();
        this.#hot.clear();
      } finally {
        this.#reloading = undefined;
      }
    })();
    return this.#reloading;
  }

  /**
   * One body of a file: from memory while it is known to be current, else
   * from disk, checked against the manifest. A compressed body is current
   * only while its file is too: one edited by hand leaves its `.br` behind.
   */
  async read(file: StaticFile, encoding: Encoding | null): Promise<BodyRead> {
    const path = encoding ? file.path + ENCODED_SUFFIX[encoding] : file.path;
    const stamp = encoding ? file.bodies[encoding] : file.bodies.identity;
    if (!stamp) return { gone: true };
    const now = Date.now();
    const held = this.#hot.get(path);
    if (held && now - held.checkedAt < RECHECK_MS) return { body: held.body };
    const [read, source] = await Promise.all([
      readStamped(path, stamp, encoding !== null),
      encoding ? isCurrent(file.path, file.bodies.identity) : true,
    ]);
    if (!source) return { changed: true };
    if ('body' in read) this.#hot.offer(path, read.body, now);
    else this.#hot.drop(path);
    return read;
  }

  /**
   * Whether a file's body on disk is still the one the manifest describes
   * (not changed, not removed): one `stat`, no read, at most once in
   * RECHECK_MS for a file found unchanged, as for a body held in memory.
   */
  async unchanged(file: StaticFile): Promise<boolean> {
    const now = Date.now();
    const checkedAt = this.#foundUnchangedAt.get(file);
    if (checkedAt !== undefined && now - checkedAt < RECHECK_MS) return true;
    const current = await isCurrent(file.path, file.bodies.identity);
    if (current) this.#foundUnchangedAt.set(file, now);
    else this.#foundUnchangedAt.delete(file);
    return current;
  }

  close(): void {
    this.#watcher?.close();
    this.#manifest?.close();
  }

  #watch(): void {
    const manifest = manifestPath(this.#clientDir);
    try {
      this.#watcher = watch(dirname(manifest), (_event, name) => {
        if (name === basename(manifest)) void this.reload().catch(() => undefined);
      });
      this.#watcher.on('error', () => this.#watcher?.close());
      this.#watcher.unref();
    } catch {
      // No watch here (a file system without notifications): a changed file is still caught when read from disk.
    }
  }
}

async function isCurrent(path: string, stamp: HeldStamp): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && sameStamp(stamp, info.size, info.mtimeMs);
}

/**
 * Reads a body if its size and time on disk are still the manifest's: whole,
 * or as a stream past LARGEST_HELD_BYTES. A compressed body missing while its
 * file is there (a build under way) is a change, not a missing page.
 */
async function readStamped(path: string, stamp: HeldStamp, encoded: boolean): Promise<BodyRead> {
  const handle = await open(path).catch(() => undefined);
  if (!handle) return encoded ? { changed: true } : { gone: true };
  let streamed = false;
  try {
    const info = await handle.stat();
    if (!sameStamp(stamp, info.size, info.mtimeMs)) return { changed: true };
    if (info.size <= LARGEST_HELD_BYTES) return { body: await handle.readFile() };
    streamed = true;
    return { stream: handle.createReadStream({ autoClose: true }), size: info.size };
  } finally {
    if (!streamed) await handle.close();
  }
}
