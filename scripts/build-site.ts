import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { CITY_INDEX_PATH } from '../src/server/cities/index-file.ts';
import { captchaSettings, siteUrl } from '../src/server/settings/environment.ts';
import { encodeBody } from '../src/server/front/encoding.ts';
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

/** Writes `.br` and `.gz` beside every compressible built file, at the best quality: it is done once. */
async function precompress(clientDir: string): Promise<void> {
  const entries = await readdir(clientDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name) && isCompressible(mediaTypeOf(entry.name)))
    .map((entry) => join(entry.parentPath, entry.name));
  for (const file of files) {
    const bodies = encodeBody(await readFile(file), 11);
    if (bodies.br) await writeFile(`${file}.br`, bodies.br);
    if (bodies.gzip) await writeFile(`${file}.gz`, bodies.gzip);
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
  await precompress(join(root, 'dist', 'client'));
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
