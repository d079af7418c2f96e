import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { etagOf } from '../http/etag.ts';
import { mediaTypeOf } from '../http/media-types.ts';
import type { Encoding } from './encoding.ts';

/**
 * The build's list of the files it wrote under `dist/client`, with what the
 * front server needs to answer each without opening it: its type, its ETag
 * and, for each body (`page.html`, `page.html.br`, `page.html.gz`), the size
 * and modification time it had when the build wrote it. A body whose size or
 * time differs on disk was changed since, and is not trusted to the ETag.
 */
const FILE_MANIFEST = 'static-files.json';

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
  contentType: string;
  etag: string;
  bodies: { identity: BodyStamp } & Partial<Record<Encoding, BodyStamp>>;
}

export interface FileManifest {
  files: ManifestFile[];
}

/** Precompressed siblings written by the build (`page.html.br`, `page.html.gz`). */
export const ENCODED_SUFFIX: Readonly<Record<Encoding, string>> = { br: '.br', gzip: '.gz' };

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
  for (const encoding of Object.keys(ENCODED_SUFFIX) as Encoding[]) {
    const stamp = encoded[encoding];
    if (stamp) bodies[encoding] = stamp;
  }
  return { file, contentType: mediaTypeOf(file), etag, bodies };
}

/** One file's entry, read from disk as it is now. */
async function describeFile(clientDir: string, file: string): Promise<ManifestFile | undefined> {
  const path = join(clientDir, file);
  const identity = await readFile(path).catch(() => undefined);
  const identityStamp = identity && (await stampOf(path));
  if (!identity || !identityStamp) return undefined;
  const encoded: Partial<Record<Encoding, BodyStamp | undefined>> = {};
  for (const [encoding, suffix] of Object.entries(ENCODED_SUFFIX) as [Encoding, string][]) encoded[encoding] = await stampOf(path + suffix);
  return manifestEntry(file, etagOf(identity), identityStamp, encoded);
}

/** Writes the manifest of `clientDir` whole, then moves it into place, so that a reader never sees half of one. */
export async function writeFileManifest(clientDir: string, files: readonly ManifestFile[]): Promise<void> {
  const target = manifestPath(clientDir);
  const manifest: FileManifest = { files: [...files].sort((a, b) => (a.file < b.file ? -1 : 1)) };
  await writeFile(`${target}.tmp`, JSON.stringify(manifest));
  await rename(`${target}.tmp`, target);
}

/** The manifest of `clientDir`, or one made now from the files themselves when the build wrote none. */
export async function readFileManifest(clientDir: string): Promise<FileManifest> {
  const text = await readFile(manifestPath(clientDir), 'utf8').catch(() => undefined);
  if (text !== undefined) return JSON.parse(text) as FileManifest;
  const described = await Promise.all((await builtFiles(clientDir)).map((file) => describeFile(clientDir, file)));
  return { files: described.filter((file) => file !== undefined) };
}
