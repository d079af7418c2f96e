import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { CONTENT_BODIES_FILE, CONTENT_DIR, CONTENT_INDEX_FILE } from '../src/server/articles/built-content.ts';
import { CITY_INDEX_PATH } from '../src/server/cities/index-file.ts';
import { LOOKUPS_PATH } from '../src/server/cities/saved-lookups.ts';
import { pageCaptcha, pageFeatures, setting } from '../src/server/settings/environment.ts';
import { todayUtc } from '../src/server/articles/catalog.ts';
import { keepingFacts } from '../src/server/articles/source.ts';
import { buildSources, readBuildSources, writeBuildSources, type BuildSources } from '../src/build/build-sources.ts';
import { articlesChangedSince, buildChangedContent } from '../src/build/content-build.ts';
import { freshFacts, readKeptFacts, writeKeptFacts } from '../src/build/kept-facts.ts';
import { changedModules, pageModulesPlugin, type PageModules, type PageReuse } from '../src/build/page-reuse.ts';
import { precompress } from '../src/build/precompress.ts';
import { prerenderingIntegration } from '../src/build/prerendering.ts';
import { keepingRenderKit, lastPageCode, promoteRenderKit, RENDER_KIT_DIR } from '../src/build/render-kit.ts';
import { listSearchParts, SEARCH_DIR, startSearchIndex } from '../src/build/search-index.ts';

/** Files the build's output depends on: a newer one than the build means build again. */
const SOURCES = ['src', 'content', 'public', 'scripts', 'astro.config.mjs', 'package.json', 'tsconfig.json'];
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

/** The settings the build bakes into pages (README.md, "Settings": those marked *build*), kept beside the build. */
export const BUILD_SETTINGS = 'dist/build-settings.json';

/** What the build records of those settings, as the environment has them now. */
export function buildSettings(): string {
  const { provider, siteKey } = pageCaptcha();
  const { newsletter, federation } = pageFeatures();
  return JSON.stringify({
    siteUrl: setting('SITE_URL'),
    captchaProvider: provider ?? null,
    captchaSiteKey: siteKey ?? null,
    newsletter,
    federation,
  });
}

/**
 * Whether `dist/` or the city index (or its saved lookups) is missing, older than any source, or
 * built with other build-time settings than the environment's now.
 */
export async function buildIsStale(root: string): Promise<boolean> {
  const built = await stat(join(root, BUILD_MARK)).catch(() => undefined);
  if (!built) return true;
  for (const path of [CITY_INDEX_PATH, LOOKUPS_PATH]) if (!(await stat(join(root, path)).catch(() => undefined))) return true;
  const settings = await readFile(join(root, BUILD_SETTINGS), 'utf8').catch(() => '');
  if (settings !== buildSettings()) return true;
  const newest = Math.max(...(await Promise.all(SOURCES.map((path) => newestModification(root, path)))));
  return newest > built.mtimeMs;
}

/**
 * The city index from the installed GeoNames packages
 * (scripts/build-city-index.ts), in a process of its own: it runs beside
 * Astro's build, which keeps about one core busy.
 */
async function writeCityIndex(root: string): Promise<void> {
  const child = spawn(process.execPath, [join(root, 'scripts', 'build-city-index.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`The city index could not be written (${CITY_INDEX_PATH}, exit ${code})`);
}

/** The content files Astro wrote among the served ones, moved where the server reads them and nothing serves them. */
async function moveContentFiles(clientDir: string, contentDir: string): Promise<void> {
  await mkdir(contentDir, { recursive: true });
  for (const file of [CONTENT_INDEX_FILE, CONTENT_BODIES_FILE]) await rename(join(clientDir, file), join(contentDir, file));
}

/** Where the last build's files wait to be removed: beside the project's caches, most often on the same file system as `dist/`. */
const SET_ASIDE = '.cache/last-builds';

/** What a rename answers for a file it cannot move by renaming: on another file system, or a mount point. */
const MOVED_ELSEWHERE = new Set(['EXDEV', 'EBUSY']);

/**
 * The last build's files moved out of `dist/` at once, and removed by a
 * process of their own while this build runs (`removed` resolves once they are gone):
 * Astro would otherwise delete its tens of thousands of files one by one
 * before it bundles. `dist/` itself stays, so that a server watching it sees
 * the new build's manifest arrive. What an interrupted build left aside goes
 * too.
 */
export async function setAsideLastBuild(root: string, { keep = false } = {}): Promise<{ folder: string; removed: Promise<void> }> {
  const dist = join(root, 'dist');
  const aside = join(root, SET_ASIDE);
  const names = await readdir(dist).catch(() => []);
  const folder = join(aside, randomUUID());
  await mkdir(folder, { recursive: true });
  for (const name of names) {
    await rename(join(dist, name), join(folder, name)).catch((error: unknown) => {
      // On another file system than the checkout (`dist/` a mounted volume, or a link to one), or itself a mount
      // point: left where it is, for Astro to empty as it would without this.
      if (!MOVED_ELSEWHERE.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    });
  }
  const gone = keep ? (await readdir(aside)).filter((name) => join(aside, name) !== folder).map((name) => join(aside, name)) : [aside];
  return { folder, removed: removeInBackground(gone) };
}

/** Removes `paths` in a process of its own; resolves once they are gone. */
export function removeInBackground(paths: readonly string[]): Promise<void> {
  const child = spawn(
    process.execPath,
    ['-e', 'for (const path of process.argv.slice(1)) require("node:fs").rmSync(path, { recursive: true, force: true })', ...paths],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const removed = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`The last build's files could not be removed (${SET_ASIDE}, exit ${String(code)})`);
  });
  removed.catch(() => undefined); // awaited by the build; a failure before that is not an unhandled one
  return removed;
}

/**
 * What a full build may take from the last one: the pages of the routes
 * whose code did not change, when only the pages' code did (not the
 * articles, the build, the settings or the rest of the code); undefined
 * when it may take nothing.
 */
async function pagesToReuse(root: string, now: BuildSources): Promise<Omit<PageReuse, 'lastDist'> | undefined> {
  const before = await readBuildSources(join(root, RENDER_KIT_DIR));
  const last = await lastPageCode(root);
  if (!before || !last || before.frame !== now.frame) return undefined;
  if (!(await stat(join(root, BUILD_MARK)).catch(() => undefined))) return undefined;
  if ((await articlesChangedSince(root, before, now)).size > 0) return undefined;
  return { lastRoutes: last.routes, lastModules: last.modules, reused: new Set(), rendered: 0 };
}

/**
 * A content-only build when only articles' Markdown and files in `public/`
 * changed since the last complete build (src/build/content-build.ts), unless `full`; otherwise the
 * city index and the search index beside `astro build`, then the
 * precompressed files the front server serves, and the render kit and the
 * sources the next content-only build starts from.
 */
export async function buildSite(root: string, { full = false }: { full?: boolean } = {}): Promise<void> {
  process.env['ASTRO_TELEMETRY_DISABLED'] = '1';
  const settings = buildSettings();
  // What the tree holds as the build starts: what a content-only build compares, and what a full build records.
  const sources = await buildSources(root, settings, todayUtc());
  if (!full) {
    const built = await buildChangedContent(root, sources, BUILD_MARK);
    if (built) {
      console.log(
        `A content-only build: ${built.rendered} pages and twins rendered again, ${built.removed} removed, of ${built.slugs.length} changed article(s)${built.slugs.length > 0 ? ` (${built.slugs.join(', ')})` : ''}; ${built.copied} file(s) of public/ copied or removed.`,
      );
      return;
    }
  }
  const reusing = full ? undefined : await pagesToReuse(root, sources);
  // The catalog's facts are worked out by the frame's code: the last build's hold when only pages' code changed.
  const facts = reusing ? await readKeptFacts(join(root, RENDER_KIT_DIR)) : freshFacts();
  // What the last build kept describes a dist/ this build is about to replace: a failure half-way must not leave it.
  await rm(join(root, RENDER_KIT_DIR), { recursive: true, force: true });
  const { build } = await import('astro');
  const clientDir = join(root, 'dist', 'client');
  const { folder, removed } = await setAsideLastBuild(root, { keep: reusing !== undefined });
  const reuse = reusing && { ...reusing, lastDist: folder };
  const search = startSearchIndex(undefined, reuse);
  let searchIndex: Awaited<ReturnType<typeof search.write>>;
  let modules: PageModules | undefined;
  try {
    await Promise.all([
      writeCityIndex(root),
      keepingFacts(facts, () =>
        build({
          root,
          vite: { plugins: [pageModulesPlugin((found) => (modules = found))] },
          integrations: [
            prerenderingIntegration(
              search.indexing,
              keepingRenderKit(root, () => modules, reuse),
            ),
          ],
        }),
      ),
    ]);
    await moveContentFiles(clientDir, join(root, CONTENT_DIR));
    searchIndex = await search.write(join(clientDir, SEARCH_DIR));
    await listSearchParts(clientDir);
  } catch (error) {
    await Promise.all([search.close(), removed.catch(() => undefined)]);
    throw error;
  }
  await precompress(root, clientDir, reuse && { lastClientDir: join(folder, 'client'), files: reuse.reused });
  await writeFile(join(root, BUILD_SETTINGS), settings);
  await promoteRenderKit(root);
  await writeKeptFacts(join(root, RENDER_KIT_DIR), facts);
  await writeBuildSources(join(root, RENDER_KIT_DIR), sources);
  if (reuse) {
    console.log(
      `Only pages' code changed: ${reuse.rendered} pages and files rendered again, ${reuse.reused.size} written as the last build wrote them; the search index ${searchIndex}. Modules changed: ${changedModules(root, reuse.lastModules, modules?.modules ?? {})}.`,
    );
    await removeInBackground([folder]);
  }
  await removed;
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
    await buildSite(process.cwd(), { full: process.argv.includes('--full') });
  } catch (error) {
    console.error(describeBuildFailure(error, process.cwd()));
    process.exit(1);
  }
}
