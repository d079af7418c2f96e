// The build's last step (scripts/build-site.ts): `.br` and `.gz` beside every
// compressible built file, and the manifest the front server answers the files
// by (src/server/front/file-manifest.ts). One worker thread a core shares out
// the files; each does its files' reads, compression and writes synchronously:
// tens of thousands of small file operations handed one by one to libuv's
// thread pool cost more in handing over than in the work itself.
import { copyFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { encodeBody, type EncodedBodies, type Encoding } from '../server/front/encoding.ts';
import {
  builtFiles,
  ENCODED_SUFFIX,
  FileManifest,
  manifestEntry,
  writeFileManifest,
  type BodyStamp,
  type ManifestFile,
} from '../server/front/file-manifest.ts';
import { etagOf } from '../server/http/etag.ts';
import { isCompressible, mediaTypeOf } from '../server/http/media-types.ts';

/**
 * Compressed bodies of the shared files of earlier builds of this project,
 * by the hash of what they compress: a file whose bytes did not change since
 * is not compressed again. Only the last build's are kept.
 */
const COMPRESSED_CACHE = '.cache/compressed';

/** What one worker is given, and what it answers. */
interface Share {
  clientDir: string;
  cacheDir: string;
  files: string[];
  /** Pages written as the last build wrote them, whose encodings are moved here from its `client/` (PageReuse). */
  reused?: { lastClientDir: string; files: string[] };
}
interface ShareDone {
  entries: ManifestFile[];
  /** The cache keys this share's files use. */
  keys: string[];
}

/** Brotli's best quality: the few files every page shares (scripts, styles, the search's), cached by content. */
const BEST_QUALITY = 11;
/**
 * Pages and twins, one file per article and language, thousands in an
 * archive: the best quality costs many times as much for bodies only a little
 * smaller, and compressing one at this quality costs about what copying it
 * from a cache would, so they are compressed afresh each build
 * (docs/architecture.md, "The build").
 */
const PAGE_QUALITY = 5;

function isPage(contentType: string): boolean {
  return contentType.startsWith('text/html') || contentType.startsWith('text/markdown');
}

/** Writes the encodings that made the body at `path` smaller beside it (and to `also`, the cache, when given). */
function writeEncoded(path: string, bodies: EncodedBodies, also?: (suffix: string) => string): void {
  for (const [encoding, suffix] of Object.entries(ENCODED_SUFFIX) as [Encoding, string][]) {
    const body = bodies[encoding];
    if (!body) continue;
    writeFileSync(path + suffix, body);
    if (also) writeFileSync(also(suffix), body);
  }
}

/**
 * Writes the `.br` and `.gz` bodies of a shared file at `path`, whose bytes
 * hash to `key`, from the cache when the same bytes were compressed before.
 * A cached entry is complete once its `.done` mark is written; an encoding
 * missing beside the mark did not make the file smaller.
 */
function compressCached(path: string, identity: Buffer, key: string, cacheDir: string): void {
  const cached = (suffix: string) => join(cacheDir, `${key}${suffix}`);
  if (existsSync(cached('.done'))) {
    try {
      for (const suffix of Object.values(ENCODED_SUFFIX)) if (existsSync(cached(suffix))) copyFileSync(cached(suffix), path + suffix);
      return;
    } catch {
      // An entry gone half-way (the cache emptied by hand): compressed again below.
    }
  }
  writeEncoded(path, encodeBody(identity, BEST_QUALITY), cached);
  writeFileSync(cached('.done'), '');
}

/**
 * Moves the encodings of the last build's same page at `from` beside `path`:
 * made of the same bytes by the same code, they are what compressing would
 * write, for a rename each.
 */
function moveEncoded(from: string, path: string): void {
  for (const suffix of Object.values(ENCODED_SUFFIX)) {
    try {
      renameSync(from + suffix, path + suffix);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      if (code === 'EXDEV') copyFileSync(from + suffix, path + suffix);
      else if (code !== 'ENOENT') throw error;
    }
  }
}

function stampOf(path: string): BodyStamp | undefined {
  const info = statSync(path, { throwIfNoEntry: false });
  return info ? { size: info.size, mtimeMs: info.mtimeMs } : undefined;
}

/** One worker's files: compressed where that helps, each described as it is on disk afterwards. */
function precompressShare({ clientDir, cacheDir, files, reused }: Share): ShareDone {
  const done: ShareDone = { entries: [], keys: [] };
  const reusedFiles = new Set(reused?.files);
  for (const file of files) {
    const path = join(clientDir, file);
    const identity = readFileSync(path);
    const etag = etagOf(identity);
    const contentType = mediaTypeOf(path);
    if (isPage(contentType) && reused && reusedFiles.has(file)) moveEncoded(join(reused.lastClientDir, file), path);
    else if (isPage(contentType)) writeEncoded(path, encodeBody(identity, PAGE_QUALITY));
    else if (isCompressible(contentType)) {
      const key = etag.slice(1, -1);
      compressCached(path, identity, key, cacheDir);
      done.keys.push(key);
    }
    const stamps = Object.fromEntries(Object.entries(ENCODED_SUFFIX).map(([encoding, suffix]) => [encoding, stampOf(path + suffix)]));
    done.entries.push(manifestEntry(file, etag, stampOf(path) ?? { size: identity.length, mtimeMs: 0 }, stamps));
  }
  return done;
}

function runShare(share: Share): Promise<ShareDone> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: share });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`A compressing worker stopped (exit ${code})`));
    });
  });
}

/** Compresses `files` of `clientDir`, on every core at once; resolves with each worker's share. */
async function compressFiles(root: string, clientDir: string, files: readonly string[], reuse?: ReusedPages): Promise<ShareDone[]> {
  const cacheDir = join(root, COMPRESSED_CACHE);
  await mkdir(cacheDir, { recursive: true });
  const workers = Math.max(1, Math.min(availableParallelism(), Math.ceil(files.length / 100)));
  const shares = Array.from({ length: workers }, (_, index) => files.filter((_file, at) => at % workers === index));
  return Promise.all(
    shares.map((share) =>
      runShare({
        clientDir,
        cacheDir,
        files: share,
        ...(reuse && { reused: { lastClientDir: reuse.lastClientDir, files: share.filter((file) => reuse.files.has(file)) } }),
      }),
    ),
  );
}

/** The pages a build wrote as the last build wrote them, and where the last build's files are (src/build/page-reuse.ts). */
export interface ReusedPages {
  lastClientDir: string;
  files: ReadonlySet<string>;
}

/**
 * Writes `.br` and `.gz` beside every compressible built file of
 * `clientDir` (moving those of `reused` pages from the last build), then the
 * manifest; empties the cache of what this build did not use.
 */
export async function precompress(root: string, clientDir: string, reused?: ReusedPages): Promise<void> {
  const done = await compressFiles(root, clientDir, await builtFiles(clientDir), reused);
  await writeFileManifest(
    clientDir,
    done.flatMap(({ entries }) => entries),
  );
  const cacheDir = join(root, COMPRESSED_CACHE);
  const used = new Set(done.flatMap(({ keys }) => keys));
  for (const name of await readdir(cacheDir)) {
    if (!used.has(name.slice(0, name.indexOf('.')))) await rm(join(cacheDir, name), { force: true });
  }
}

/**
 * A content-only build's share of `precompress`: the `written` files
 * compressed and described, the `removed` ones (whose bodies the caller
 * deleted) left out, and every other entry of the last manifest kept. The
 * cache keeps what it holds, the unchanged files' bodies among it.
 */
export async function precompressChanged(
  root: string,
  clientDir: string,
  written: readonly string[],
  removed: readonly string[],
): Promise<void> {
  // A file's last encodings go with its last body: the new one may compress to nothing smaller.
  for (const file of written) for (const suffix of Object.values(ENCODED_SUFFIX)) await rm(join(clientDir, file + suffix), { force: true });
  const done = await compressFiles(root, clientDir, written);
  const replaced = new Set([...written, ...removed]);
  const manifest = await FileManifest.read(clientDir);
  const kept = [...manifest.entries()].filter(({ file }) => !replaced.has(file));
  manifest.close();
  await writeFileManifest(clientDir, [...kept, ...done.flatMap(({ entries }) => entries)]);
}

if (!isMainThread) parentPort?.postMessage(precompressShare(workerData as Share));
