// A content-only build: when only articles' Markdown (or files in `public/`) changed since the last complete build
// (src/build/build-sources.ts), the pages that show those articles are rendered again with the last build's own
// prerendering bundle (src/build/render-kit.ts), the changed files of `public/` copied, and everything else is kept as
// it is in dist/. The result is what a full build of the same tree writes, byte for byte
// (tests/build/content-build.test.ts).
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LANGUAGE_CODES, languagePrefix, type LanguageCode } from '../i18n/languages.ts';
import { CONTENT_BODIES_FILE, CONTENT_DIR, CONTENT_INDEX_FILE, builtArticleDates } from '../server/articles/built-content.ts';
import { articlePath } from '../server/articles/catalog.ts';
import { byArticleId, keepingFacts, syncingOnly } from '../server/articles/source.ts';
import { builtFiles, ENCODED_SUFFIX } from '../server/front/file-manifest.ts';
import { changedPublicFiles, changedSlugs, publicFile, readBuildSources, writeBuildSources, type BuildSources } from './build-sources.ts';
import { readKeptFacts, writeKeptFacts } from './kept-facts.ts';
import { precompressChanged } from './precompress.ts';
import { builtFileOf, openRenderKit, RENDER_KIT_DIR, type RenderKit } from './render-kit.ts';
import { listSearchParts, SEARCH_DIR, searchPartOf, startSearchIndex, type SearchIndex } from './search-index.ts';

/** What a content-only build did, for its log line and the tests. */
export interface ContentBuild {
  /** The articles whose pages were rendered again. */
  slugs: string[];
  /** Pages and twins rendered again and written. */
  rendered: number;
  /** Pages and twins of removed translations, deleted. */
  removed: number;
  /** Files of `public/` copied again or deleted (an image changed, added or removed). */
  copied: number;
}

/** The files a full build moves out of the served ones (scripts/build-site.ts): rendered again whatever changed. */
const CONTENT_FILES = new Set([CONTENT_INDEX_FILE, CONTENT_BODIES_FILE]);

/** The page and twin paths of `slugs` in every language, as Astro names them (no trailing slash). */
function articlePaths(slugs: Iterable<string>): Set<string> {
  const paths = new Set<string>();
  for (const slug of slugs) {
    for (const lang of LANGUAGE_CODES) paths.add(articlePath(slug, lang)).add(`${articlePath(slug, lang)}.md`);
  }
  return paths;
}

/** Writes a file whole, then moves it into place: a server reading it never sees half of one. */
async function replaceFile(path: string, body: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(`${path}.tmp`, body);
  await rename(`${path}.tmp`, path);
}

/**
 * Astro's content sync, as `astro build` starts with, of the articles `slugs`
 * alone: the content store then holds them as they are now, and every other
 * as the last sync left it (their files did not change).
 */
async function syncContent(root: string, slugs: ReadonlySet<string>): Promise<void> {
  const { sync } = await import('astro');
  await syncingOnly(slugs, () => sync({ root, logLevel: 'warn' }));
}

/**
 * The search index's parts the changed articles are in, made again from
 * the start of a content-only build: Pagefind, a process of its own, takes
 * in the pages of the articles that did not change while the content is
 * synced and the changed articles rendered (`rendered` hands it theirs).
 */
interface SearchParts {
  parts: ReadonlySet<number>;
  search: SearchIndex;
  /** Hands over the changed articles' pages, by file, as rendered. */
  rendered: (pages: ReadonlyMap<string, string>) => void;
  /** Resolves once every page is handed over. */
  fed: Promise<void>;
}

function startSearchParts(clientDir: string, slugs: ReadonlySet<string>): SearchParts {
  const parts = new Set([...slugs].map(searchPartOf));
  const search = startSearchIndex(parts);
  let rendered: SearchParts['rendered'] = () => undefined;
  const pages = new Promise<ReadonlyMap<string, string>>((resolve) => (rendered = resolve));
  const fed = feedSearchParts(search.add, clientDir, parts, slugs, pages);
  fed.catch(() => undefined); // awaited by the build; a failure before that is not an unhandled one
  return { parts, search, rendered, fed };
}

/** Stops making the parts: the build failed, or turned out to need a full one. */
async function abandonSearchParts({ search, rendered, fed }: SearchParts): Promise<void> {
  rendered(new Map());
  await Promise.all([fed.catch(() => undefined), search.close()]);
}

/**
 * Renders the changed articles' pages and twins, hands the pages to the
 * search parts, renders the content files, and writes each; then writes the
 * search parts beside the old ones and swaps them in. Resolves with the
 * files written and removed, relative to `clientDir`.
 */
async function renderChanged(
  kit: RenderKit,
  root: string,
  clientDir: string,
  slugs: ReadonlySet<string>,
  { parts, search, rendered, fed }: SearchParts,
): Promise<{ written: string[]; removed: string[]; rendered: number }> {
  const changed = articlePaths(slugs);
  const written: string[] = [];
  const pages = new Map<string, string>();
  const kept = new Set<string>();
  const paths = await kit.paths();
  // The changed articles first, as the search parts wait for their pages; then the content files.
  for (const path of paths) {
    if (!changed.has(path.pathname.replace(/\/+$/, ''))) continue;
    const file = kit.fileOf(path);
    const body = await kit.render(path);
    kept.add(file);
    if (!body) continue;
    await replaceFile(join(clientDir, file), body);
    written.push(file);
    if (path.route.type === 'page') pages.set(file, body.toString('utf8'));
  }
  rendered(pages);
  for (const path of paths) {
    const file = kit.fileOf(path);
    if (!CONTENT_FILES.has(file)) continue;
    const body = await kit.render(path);
    if (body) await replaceFile(join(root, CONTENT_DIR, file), body);
  }
  await fed;
  const removed = await removeGone(clientDir, changed, kept);
  const searchFiles = await replaceSearchParts(search.write, clientDir, parts);
  return { written: [...written, ...searchFiles.written], removed: [...removed, ...searchFiles.removed], rendered: written.length };
}

/**
 * Hands the pages of the search index's `parts` to `add` in the order a full
 * build renders them (articleStaticPaths, src/site/content.ts: by id,
 * `<slug>/<lang>`): the pages of the articles that did not change as the last
 * build wrote them, those of the changed articles (`slugs`) once `rendered`
 * holds them.
 */
async function feedSearchParts(
  add: (file: string, html: string) => Promise<void>,
  clientDir: string,
  parts: ReadonlySet<number>,
  slugs: ReadonlySet<string>,
  rendered: Promise<ReadonlyMap<string, string>>,
): Promise<void> {
  const ids = new Set<string>();
  for (const lang of LANGUAGE_CODES) {
    const folder = join(clientDir, languagePrefix(lang), 'articles');
    const built = (await readdir(folder, { withFileTypes: true }).catch(() => [])).filter((entry) => entry.isDirectory());
    for (const slug of [...slugs, ...built.map((entry) => entry.name)]) if (parts.has(searchPartOf(slug))) ids.add(`${slug}/${lang}`);
  }
  for (const id of [...ids].sort(byArticleId)) {
    const slug = id.slice(0, id.indexOf('/'));
    const file = builtFileOf(articlePath(slug, id.slice(slug.length + 1) as LanguageCode), 'page');
    const html = slugs.has(slug) ? (await rendered).get(file) : readBuilt(join(clientDir, file));
    if (html !== undefined) await add(file, html);
  }
}

/** A built page as the last build wrote it; undefined where it wrote none (a page of another language, a draft). */
function readBuilt(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Deletes a built file and its `.br` and `.gz`, where they are. */
async function removeWithEncodings(path: string): Promise<void> {
  for (const suffix of ['', ...Object.values(ENCODED_SUFFIX)]) await rm(path + suffix, { force: true });
}

/** Deletes the pages of the changed articles that no path renders any more (a translation removed), with their encodings. */
async function removeGone(clientDir: string, changed: ReadonlySet<string>, kept: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  for (const name of changed) {
    for (const file of [`${name.slice(1)}/index.html`, name.slice(1)]) {
      if (kept.has(file) || !(await stat(join(clientDir, file)).catch(() => undefined))?.isFile()) continue;
      await removeWithEncodings(join(clientDir, file));
      // A page's folder goes with it, as a full build would not make it (it holds nothing else).
      if (file.endsWith('/index.html')) await rmdir(dirname(join(clientDir, file))).catch(() => undefined);
      removed.push(file);
    }
  }
  return removed;
}

/**
 * Writes the search index's `parts` beside the served ones, then swaps each
 * in (a part left with no page goes), and lists them again; the files
 * written and those gone, relative to `clientDir`.
 */
async function replaceSearchParts(
  write: (dir: string) => Promise<unknown>,
  clientDir: string,
  parts: ReadonlySet<number>,
): Promise<{ written: string[]; removed: string[] }> {
  const next = join(clientDir, '..', 'search-parts.next');
  await rm(next, { recursive: true, force: true });
  await write(next);
  const written: string[] = [];
  const removed: string[] = [];
  const filesOf = async (dir: string, part: number) => (await builtFiles(dir)).map((file) => `${SEARCH_DIR}/${part}/${file}`);
  for (const part of parts) {
    const live = join(clientDir, SEARCH_DIR, String(part));
    removed.push(...(await filesOf(live, part).catch(() => [])));
    await rm(live, { recursive: true, force: true });
    const made = join(next, String(part));
    if (!(await stat(made).catch(() => undefined))) continue;
    await mkdir(dirname(live), { recursive: true });
    await rename(made, live);
    written.push(...(await filesOf(live, part)));
  }
  await rm(next, { recursive: true, force: true });
  written.push(...(await listSearchParts(clientDir)));
  return { written, removed };
}

/**
 * The articles whose pages differ from the last build's (`before`): those
 * whose files changed, and those dated since, built then as not yet searchable.
 */
export async function articlesChangedSince(root: string, before: BuildSources, now: BuildSources): Promise<Set<string>> {
  const slugs = changedSlugs(before, now);
  for (const { slug, date } of await builtArticleDates(join(root, CONTENT_DIR))) if (date > before.day && date <= now.day) slugs.add(slug);
  return slugs;
}

/**
 * Copies the changed files of `public/` into `clientDir` as Astro's build
 * does, and deletes those gone with their encodings; resolves with the files
 * written and removed, relative to `clientDir`.
 */
async function copyChangedPublic(
  root: string,
  clientDir: string,
  files: readonly string[],
): Promise<{ written: string[]; removed: string[] }> {
  const written: string[] = [];
  const removed: string[] = [];
  for (const file of files) {
    const body = await readFile(publicFile(root, file)).catch(() => undefined);
    if (body) {
      await replaceFile(join(clientDir, file), body);
      written.push(file);
      continue;
    }
    await removeWithEncodings(join(clientDir, file));
    removed.push(file);
  }
  return { written, removed };
}

/**
 * Builds `root` by its content alone when only articles' Markdown and files
 * in `public/` changed since the last complete build, whose time `mark`
 * holds, and `now` is what the tree holds (buildSources); resolves with what
 * it did, or undefined when a full build is needed (no build kept, code,
 * settings or other files changed).
 */
export async function buildChangedContent(root: string, now: BuildSources, mark: string): Promise<ContentBuild | undefined> {
  const kitDir = join(root, RENDER_KIT_DIR);
  const before = await readBuildSources(kitDir);
  if (!before || !(await stat(join(root, mark)).catch(() => undefined))) return undefined;
  if (now.code !== before.code) return undefined;
  const slugs = await articlesChangedSince(root, before, now);
  const clientDir = join(root, 'dist', 'client');
  const copied = await copyChangedPublic(root, clientDir, changedPublicFiles(before, now));
  let result: ContentBuild = { slugs: [...slugs].sort(), rendered: 0, removed: 0, copied: copied.written.length + copied.removed.length };
  let done = { written: [] as string[], removed: [] as string[], rendered: 0 };
  if (slugs.size > 0) {
    const searchParts = startSearchParts(clientDir, slugs);
    const facts = await readKeptFacts(kitDir);
    try {
      await syncContent(root, slugs);
      const kit = await openRenderKit(root);
      if (!kit) {
        await abandonSearchParts(searchParts);
        return undefined;
      }
      done = await keepingFacts(facts, () => renderChanged(kit, root, clientDir, slugs, searchParts));
      await writeKeptFacts(kitDir, facts);
    } catch (error) {
      await abandonSearchParts(searchParts);
      throw error;
    }
    result = { ...result, rendered: done.rendered, removed: done.removed.filter((file) => !file.startsWith(`${SEARCH_DIR}/`)).length };
  }
  const written = [...done.written, ...copied.written];
  const removed = [...done.removed, ...copied.removed];
  if (written.length + removed.length > 0) await precompressChanged(root, clientDir, written, removed);
  await writeBuildSources(kitDir, now);
  const time = new Date();
  await utimes(join(root, mark), time, time);
  return result;
}
