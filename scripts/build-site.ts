import { access, copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { CITY_INDEX_PATH } from '../src/server/cities/index-file.ts';
import { captchaSettings, siteUrl } from '../src/server/settings/environment.ts';
import { encodeBodyAsync, type Encoding } from '../src/server/front/encoding.ts';
import { builtFiles, describeFile, ENCODED_SUFFIX, writeFileManifest, type ManifestFile } from '../src/server/front/file-manifest.ts';
import { etagOf } from '../src/server/http/etag.ts';
import { isCompressible, mediaTypeOf } from '../src/server/http/media-types.ts';
import { buildCityIndex, formatCityIndex } from './build-city-index.ts';
import { writeSearchIndex } from './search-index.ts';

/** Files the build's output depends on: a newer one than the build means build again. */
const SOURCES = ['src', 'content', 'public', 'astro.config.mjs', 'package.json', 'tsconfig.json'];
/** The build is complete once this file exists; its time is the build's. */
export const BUILD_MARK = 'dist/server/entry.mjs';

async function newestModification(root: string, path: string): Promise<number> {
  const info = await stat(join(root, path)).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(join(root, path), { recursive: true });
  const times = await Promise.all(entries.map(async (entry) => (await stat(join(root, path, entry))).mtimeMs));
  return Math.max(info.mtimeMs, ...times);
}

/** The settings the build bakes into pages (docs/decisions.md, Settings: those marked *build*), kept beside the build. */
const BUILD_SETTINGS = 'dist/build-settings.json';

function buildSettings(): string {
  return JSON.stringify({ siteUrl: siteUrl(), captchaSiteKey: captchaSettings().siteKey ?? null });
}

/**
 * Whether `dist/` or the city index is missing, older than any source, or
 * built with other build-time settings than the environment's now.
 */
export async function buildIsStale(root: string): Promise<boolean> {
  const built = await stat(join(root, BUILD_MARK)).catch(() => undefined);
  if (!built || !(await stat(join(root, CITY_INDEX_PATH)).catch(() => undefined))) return true;
  const settings = await readFile(join(root, BUILD_SETTINGS), 'utf8').catch(() => '');
  if (settings !== buildSettings()) return true;
  const newest = Math.max(...(await Promise.all(SOURCES.map((path) => newestModification(root, path)))));
  return newest > built.mtimeMs;
}

/**
 * Compressed bodies of earlier builds of this project, by the hash of what
 * they compress: a file whose bytes did not change since is not compressed
 * again. Only the last build's are kept.
 */
const COMPRESSED_CACHE = '.cache/compressed';

/** Runs `work` on every item, at most `limit` at once. */
async function eachLimited<Item>(items: readonly Item[], limit: number, work: (item: Item) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as Item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The `.br` and `.gz` bodies of one built file at the best quality (it is
 * done once), from the cache when its bytes were compressed before. A cached
 * entry is complete once its `.done` mark is written; an encoding missing
 * beside the mark did not make the file smaller.
 */
async function compressCached(path: string, cacheDir: string): Promise<string> {
  const identity = await readFile(path);
  const key = etagOf(identity).slice(1, -1);
  const cached = (suffix: string) => join(cacheDir, `${key}${suffix}`);
  if (await exists(cached('.done'))) {
    try {
      for (const suffix of Object.values(ENCODED_SUFFIX)) if (await exists(cached(suffix))) await copyFile(cached(suffix), path + suffix);
      return key;
    } catch {
      // An entry gone half-way (the cache emptied by hand): compressed again below.
    }
  }
  const bodies = await encodeBodyAsync(identity, 11);
  for (const [encoding, suffix] of Object.entries(ENCODED_SUFFIX) as [Encoding, string][]) {
    const body = bodies[encoding];
    if (!body) continue;
    await writeFile(path + suffix, body);
    await writeFile(cached(suffix), body);
  }
  await writeFile(cached('.done'), '');
  return key;
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Writes `.br` and `.gz` beside every compressible built file, on every core
 * at once, then the manifest the front server answers the files by
 * (src/server/front/file-manifest.ts).
 */
async function precompress(root: string, clientDir: string): Promise<void> {
  const cacheDir = join(root, COMPRESSED_CACHE);
  await mkdir(cacheDir, { recursive: true });
  const files = await builtFiles(clientDir);
  const used = new Set<string>();
  const described: ManifestFile[] = [];
  await eachLimited(files, availableParallelism(), async (file) => {
    const path = join(clientDir, file);
    if (isCompressible(mediaTypeOf(path))) used.add(await compressCached(path, cacheDir));
    const entry = await describeFile(clientDir, file);
    if (entry) described.push(entry);
  });
  await writeFileManifest(clientDir, described);
  for (const name of await readdir(cacheDir)) {
    if (!used.has(name.slice(0, name.indexOf('.')))) await rm(join(cacheDir, name), { force: true });
  }
}

/** The city index from the installed GeoNames packages (scripts/build-city-index.ts). */
async function writeCityIndex(root: string): Promise<void> {
  const path = join(root, CITY_INDEX_PATH);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, formatCityIndex(buildCityIndex()));
}

/** The city index, `astro build`, the search index, then the precompressed files the front server serves. */
export async function buildSite(root: string): Promise<void> {
  process.env['ASTRO_TELEMETRY_DISABLED'] = '1';
  await writeCityIndex(root);
  const { build } = await import('astro');
  await build({ root });
  await writeSearchIndex(join(root, 'dist', 'client'));
  await precompress(root, join(root, 'dist', 'client'));
  await writeFile(join(root, BUILD_SETTINGS), buildSettings());
}

/**
 * A failed build told the way a writer can act on it: which file, what is
 * wrong, without a stack trace of the build tool.
 */
export function describeBuildFailure(error: unknown, root: string): string {
  const { message = String(error), loc } = error as { message?: string; loc?: { file?: string } };
  const file = loc?.file ? relative(root, loc.file) : undefined;
  const text = message.replaceAll('**', '').trim();
  return `The build failed${file && !text.includes(file) ? ` in ${file}` : ''}:\n${text}`;
}

if (import.meta.main) {
  try {
    await buildSite(process.cwd());
  } catch (error) {
    console.error(describeBuildFailure(error, process.cwd()));
    process.exit(1);
  }
}
