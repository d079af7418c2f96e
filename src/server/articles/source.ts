import { isLanguageCode, type LanguageCode } from '../../i18n/languages.ts';
import type { FactsMemo } from './catalog.ts';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** One language file of an article, as the writer wrote it. */
export interface ArticleSource {
  slug: string;
  lang: LanguageCode;
  title: string;
  /** YYYY-MM-DD */
  date: string;
  excerpt: string;
  draft: boolean;
  /** A translation's stamp of the English body it follows (translation-stamp.ts). */
  translatedFrom?: string;
  /** The Markdown (or MDX) body, front matter removed. */
  body: string;
  /** The content layer's digest of the whole file, where it read it: the same digest, the same file. */
  fileDigest?: string;
}

/**
 * The slug and language of a content file from its path below `content/articles`
 * (`<slug>/<lang>.md`). Throws, naming the file, when either is not valid:
 * a writer's typo fails the build instead of publishing under a wrong address.
 */
export function parseArticlePath(path: string): { slug: string; lang: LanguageCode } {
  const match = /^([^/]+)\/([^/.]+)(?:\.mdx?)?$/.exec(path);
  const slug = match?.[1];
  const lang = match?.[2];
  if (slug === undefined || lang === undefined) {
    throw new Error(`content/articles/${path}: expected <slug>/<lang>.md or .mdx`);
  }
  if (!SLUG_PATTERN.test(slug)) {
    throw new Error(`content/articles/${path}: the folder name "${slug}" is not a slug (lowercase letters, digits, single hyphens)`);
  }
  if (!isLanguageCode(lang)) {
    throw new Error(`content/articles/${path}: "${lang}" is not one of the site's language codes`);
  }
  return { slug, lang };
}

/**
 * The order of article files by their ids (`<slug>/<lang>`): the order the
 * build renders their pages in and hands them to the search index in, which
 * a content-only build follows (src/build/content-build.ts).
 */
export function byArticleId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The article folders the running content sync reads, when a content-only
 * build (src/build/content-build.ts) names them: every other article stays as
 * the content store holds it (src/site/articles-loader.ts). A global, not a
 * module's variable: Astro loads the content config in a module graph of its own.
 */
const SYNC_SCOPE = Symbol.for('longhand.articleSyncScope');
/** The facts memo of the running build (src/build/kept-facts.ts), a global for the same reason. */
const FACTS_MEMO = Symbol.for('longhand.factsMemo');
type BuildGlobal = typeof globalThis & { [SYNC_SCOPE]?: ReadonlySet<string> | undefined; [FACTS_MEMO]?: FactsMemo | undefined };

/** Runs `run` with the global `key` set to `value`, and unset after. */
async function withGlobal<K extends typeof SYNC_SCOPE | typeof FACTS_MEMO, T>(
  key: K,
  value: NonNullable<BuildGlobal[K]>,
  run: () => Promise<T>,
): Promise<T> {
  (globalThis as BuildGlobal)[key] = value;
  try {
    return await run();
  } finally {
    (globalThis as BuildGlobal)[key] = undefined;
  }
}

/** Runs a content sync (`sync`) that reads the article folders `slugs` alone. */
export function syncingOnly<T>(slugs: ReadonlySet<string>, sync: () => Promise<T>): Promise<T> {
  return withGlobal(SYNC_SCOPE, slugs, sync);
}

/** The article folders the running content sync reads; undefined when it reads them all. */
export function syncScope(): ReadonlySet<string> | undefined {
  return (globalThis as BuildGlobal)[SYNC_SCOPE];
}

/** Runs `run` (a build, or a part of one) with the catalog's facts of article files kept in `memo`. */
export function keepingFacts<T>(memo: FactsMemo, run: () => Promise<T>): Promise<T> {
  return withGlobal(FACTS_MEMO, memo, run);
}

/** The running build's facts memo; undefined outside a build that keeps one (`astro dev`, the tests' catalogs). */
export function factsMemo(): FactsMemo | undefined {
  return (globalThis as BuildGlobal)[FACTS_MEMO];
}
