// What a build was made from, recorded beside the render kit (src/build/render-kit.ts) once the build is complete: the
// next build is content-only (src/build/content-build.ts) when nothing but articles' Markdown and files in `public/`
// changed since.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** Everything but the articles' Markdown and `public/` that a build reads: a change to any of it makes the next build a full one. */
const CODE_SOURCES = ['src', 'scripts', 'content/pages', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];
/**
 * The pages' own code: what only the prerendering bundle is made of, not the
 * content sync (`src/site/articles-loader.ts`) nor the build. A change to it
 * alone renders again only the routes whose code changed (src/build/page-reuse.ts).
 */
const PAGE_CODE = /^src\/(?:components|layouts|pages|styles|site)\/(?!articles-loader\.ts$)/;
const ARTICLES_DIR = 'content/articles';
/** Files the build copies as they are (images, the icon): no page reads their bytes, only their names. */
const PUBLIC_DIR = 'public';
/** An article file a content-only build takes: `<slug>/<lang>.md`, not in an old version's folder (`<slug>.v2/`). */
const ARTICLE_FILE = /^[^/]+(?<!\.v\d+)\/[^/]+\.md$/;
const RECORD = 'sources.json';

export interface BuildSources {
  /** A digest of the code and settings the build was made with (CODE_SOURCES, other files among the articles, the build settings, the folder, Node's version). */
  code: string;
  /** The same digest without the pages' own code (PAGE_CODE). */
  frame: string;
  /** Each article's Markdown file (relative to content/articles) and the digest of its bytes. */
  articles: Record<string, string>;
  /** Each file in `public/` (relative to it) and the digest of its bytes. */
  public: Record<string, string>;
  /** The day (UTC) the build was made on: an article dated after it was built as not yet searchable. */
  day: string;
}

function digest(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function filesUnder(root: string, path: string): Promise<string[]> {
  const entries = await readdir(join(root, path), { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  if (entries === null) return [path];
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(root.length + 1)
        .split(sep)
        .join('/'),
    );
}

/**
 * The sources of the tree at `root` now; `settings` is what the build records
 * of its build settings. The files are read synchronously: nothing else runs
 * while a build starts, and thousands of small files read one after the
 * other through the thread pool take ten times as long.
 */
export async function buildSources(root: string, settings: string, day: string): Promise<BuildSources> {
  const frame = createHash('sha256').update(`${root}\n${process.version}\n${settings}\n`);
  const pageCode = createHash('sha256');
  const articles: Record<string, string> = {};
  const copied: Record<string, string> = {};
  const files = (await Promise.all([...CODE_SOURCES, ARTICLES_DIR, PUBLIC_DIR].map((path) => filesUnder(root, path)))).flat().sort();
  for (const file of files) {
    const bytes = readFileSync(join(root, file));
    const article = file.startsWith(`${ARTICLES_DIR}/`) ? file.slice(ARTICLES_DIR.length + 1) : undefined;
    if (article !== undefined && ARTICLE_FILE.test(article)) articles[article] = digest(bytes);
    else if (file.startsWith(`${PUBLIC_DIR}/`)) copied[file.slice(PUBLIC_DIR.length + 1)] = digest(bytes);
    else (PAGE_CODE.test(file) ? pageCode : frame).update(`${file}\n${digest(bytes)}\n`);
  }
  const frameDigest = frame.digest('hex');
  return { code: digest(`${frameDigest}\n${pageCode.digest('hex')}`), frame: frameDigest, articles, public: copied, day };
}

export async function readBuildSources(dir: string): Promise<BuildSources | undefined> {
  const text = await readFile(join(dir, RECORD), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as BuildSources);
}

export async function writeBuildSources(dir: string, sources: BuildSources): Promise<void> {
  await writeFile(join(dir, RECORD), JSON.stringify(sources));
}

/** The slugs whose Markdown files differ between two builds' sources (added, changed or removed). */
export function changedSlugs(before: BuildSources, now: BuildSources): Set<string> {
  const slugs = new Set<string>();
  for (const file of new Set([...Object.keys(before.articles), ...Object.keys(now.articles)])) {
    if (before.articles[file] !== now.articles[file]) slugs.add(file.slice(0, file.indexOf('/')));
  }
  return slugs;
}

/** The files of `public/` that differ between two builds' sources (added, changed or removed), relative to it. */
export function changedPublicFiles(before: BuildSources, now: BuildSources): string[] {
  return [...new Set([...Object.keys(before.public), ...Object.keys(now.public)])]
    .filter((file) => before.public[file] !== now.public[file])
    .sort();
}

/** Where a file of `public/` (relative to it) is in the tree. */
export function publicFile(root: string, file: string): string {
  return join(root, PUBLIC_DIR, file);
}
