import { createHash } from 'node:crypto';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageCode } from '../../i18n/languages.ts';
import { LineFile } from '../line-files/line-file.ts';
import { catalogOf, indexSources, type BodyReader, type Catalog, type IndexedSource, type SourceTable } from './catalog.ts';
import type { ArticleSource } from './source.ts';

/**
 * The writer's content as the running site reads it: the build writes two
 * files (docs/architecture.md, "Content and lists"), an index of every
 * article file and content page without the articles' bodies, and the
 * bodies one after another. The server reads an article file's line of the
 * index where it lies (LineFile) when an answer needs its entry, and its
 * body from disk, so that its memory grows with the archive by a few bytes
 * an article file. Astro's own content store,
 * which holds every body and its HTML, is never loaded at run time.
 *
 * The index is JSON Lines: first `{"pages": {...}}`, the content pages by
 * `<name>/<lang>`; then one line an article file, in `indexSources`' order:
 *
 *     [slug, lang, title, date, excerpt, readingTime, outdated, digest, body offset, body length, body hash]
 */
export const CONTENT_INDEX_FILE = 'content-index.jsonl';
/** Where they are kept, below the checkout: Astro writes them among the served files, and the build moves them here. */
export const CONTENT_DIR = 'dist/content';
export const CONTENT_BODIES_FILE = 'content-bodies.txt';

/** Where an article file's body lies in the bodies file, and the hash it was written with. */
interface BodyLocation {
  offset: number;
  length: number;
  hash: string;
}

type LocatedSource = IndexedSource & { body: BodyLocation };

type SourceLine = [string, LanguageCode, string, string, string, number, boolean, string, number, number, string];

/** A content page (content/pages/<name>/<lang>.md) as the pages rendered on demand show it. */
export interface PageText {
  title: string;
  description: string;
  /** Its Markdown, for the Markdown twin. */
  body: string;
  /** Its HTML, for the page. */
  html: string;
}

/** By `<name>/<lang>`, only the languages a page is written in. */
type Pages = Record<string, PageText>;

function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
}

function lineOf({ slug, lang, title, date, excerpt, readingTime, outdated, digest, body }: LocatedSource): string {
  const line: SourceLine = [slug, lang, title, date, excerpt, readingTime, outdated, digest, body.offset, body.length, body.hash];
  return JSON.stringify(line);
}

function sourceOf(line: string): LocatedSource {
  const [slug, lang, title, date, excerpt, readingTime, outdated, digest, offset, length, hash] = JSON.parse(line) as SourceLine;
  return { slug, lang, title, date, excerpt, readingTime, outdated, digest, body: { offset, length, hash } };
}

/** The build's two files, from the content collections. */
export function contentFiles(sources: readonly ArticleSource[], pages: Pages): { index: string; bodies: Buffer } {
  const bodies = new Map(sources.map((source) => [`${source.slug}/${source.lang}`, source.body]));
  const chunks: Buffer[] = [];
  let offset = 0;
  const lines = indexSources(sources).map((source) => {
    const bytes = Buffer.from(bodies.get(`${source.slug}/${source.lang}`) ?? '', 'utf8');
    const body = { offset, length: bytes.length, hash: hashOf(bytes) };
    offset += bytes.length;
    chunks.push(bytes);
    return lineOf({ ...source, body });
  });
  return { index: [JSON.stringify({ pages }), ...lines].map((line) => `${line}\n`).join(''), bodies: Buffer.concat(chunks) };
}

/** The index's lines as the catalog's table: its pages, and each article file's line, read and parsed when asked for. */
function indexTable(lines: LineFile): { pages: Pages; table: SourceTable } {
  const { pages } = JSON.parse(lines.line(0)) as { pages: Pages };
  const all = function* () {
    let at = 0;
    for (const line of lines) if (at++ > 0) yield sourceOf(line);
  };
  return { pages, table: { size: lines.size - 1, source: (at) => sourceOf(lines.line(at + 1)), all } };
}

/** The content of a build, opened by the running site. */
export interface BuiltContent {
  catalog: Catalog;
  /** A content page in one language, as it was written; undefined where it is not. */
  page(name: string, lang: string): PageText | undefined;
}

/**
 * Opens the build's content in `dir` (dist/content): the index is read now,
 * each body when it is asked for, with a read at its place in the bodies
 * file. A body that is not what the index says (the file was changed since
 * the site started) fails the response that asked for it rather than serving
 * another article's text.
 */
export function openBuiltContent(dir: string, site: string): BuiltContent {
  const { pages, table } = indexTable(LineFile.open(join(dir, CONTENT_INDEX_FILE)));
  const bodiesPath = join(dir, CONTENT_BODIES_FILE);
  let handle: Promise<FileHandle> | undefined;
  const read: BodyReader = async (source) => {
    const { offset, length, hash } = (source as LocatedSource).body;
    handle ??= open(bodiesPath, 'r');
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await (await handle).read(bytes, 0, length, offset);
    if (bytesRead !== length || hashOf(bytes) !== hash) {
      throw new Error(`${bodiesPath} changed since the site started: restart it to serve the new build`);
    }
    return bytes.toString('utf8');
  };
  return { catalog: catalogOf(table, site, read), page: (name, lang) => pages[`${name}/${lang}`] };
}

let served: BuiltContent | undefined;

/** Makes the running site read its content from the build's files (the server entry calls it before it listens). */
export function serveBuiltContent(content: BuiltContent): void {
  served = content;
}

/** The build's content when the site runs from a build; undefined while Astro builds or serves in development. */
export function builtContent(): BuiltContent | undefined {
  return served;
}

/**
 * The build's article files in `dir` (dist/content), each one's slug and
 * date; none before a build.
 */
export async function builtArticleDates(dir: string): Promise<{ slug: string; date: string }[]> {
  const text = await readFile(join(dir, CONTENT_INDEX_FILE)).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.from('{"pages":{}}\n');
    throw error;
  });
  const { table } = indexTable(LineFile.of(text));
  return Array.from(table.all(), ({ slug, date }) => ({ slug, date }));
}

/**
 * The slugs of the build's articles in `dir` (dist/content), as the data tool
 * matches imported comments to them; none before a build (then only a map matches).
 */
export async function builtArticleSlugs(dir: string): Promise<Set<string>> {
  return new Set((await builtArticleDates(dir)).map(({ slug }) => slug));
}
