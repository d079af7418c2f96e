import { createHash } from 'node:crypto';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogOf, indexSources, type BodyReader, type Catalog, type IndexedSource } from './catalog.ts';
import type { ArticleSource } from './source.ts';

/**
 * The writer's content as the running site reads it: the build writes two
 * files (docs/architecture.md, "Content and lists"), an index of
 * every article file and content page without the articles' bodies, and the
 * bodies one after another. The server holds the index, which grows by a few
 * hundred bytes an article, and reads a body from disk when a response needs
 * it, so that its memory does not grow with the archive. Astro's own content
 * store, which holds every body and its HTML, is never loaded at run time.
 */
export const CONTENT_INDEX_FILE = 'content-index.json';
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

/** A content page (content/pages/<name>/<lang>.md) as the pages rendered on demand show it. */
export interface PageText {
  title: string;
  description: string;
  /** Its Markdown, for the Markdown twin. */
  body: string;
  /** Its HTML, for the page. */
  html: string;
}

interface ContentIndex {
  articles: LocatedSource[];
  /** By `<name>/<lang>`, only the languages a page is written in. */
  pages: Record<string, PageText>;
}

function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
}

/** The build's two files, from the content collections. */
export function contentFiles(sources: readonly ArticleSource[], pages: Record<string, PageText>): { index: string; bodies: Buffer } {
  const bodies = new Map(sources.map((source) => [`${source.slug}/${source.lang}`, source.body]));
  const chunks: Buffer[] = [];
  let offset = 0;
  const articles = indexSources(sources).map((source): LocatedSource => {
    const bytes = Buffer.from(bodies.get(`${source.slug}/${source.lang}`) ?? '', 'utf8');
    const body = { offset, length: bytes.length, hash: hashOf(bytes) };
    offset += bytes.length;
    chunks.push(bytes);
    return { ...source, body };
  });
  const index: ContentIndex = { articles, pages };
  return { index: JSON.stringify(index), bodies: Buffer.concat(chunks) };
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
export async function openBuiltContent(dir: string, site: string): Promise<BuiltContent> {
  const index = JSON.parse(await readFile(join(dir, CONTENT_INDEX_FILE), 'utf8')) as ContentIndex;
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
  return { catalog: catalogOf(index.articles, site, read), page: (name, lang) => index.pages[`${name}/${lang}`] };
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
 * The slugs of the build's articles in `dir` (dist/content), as the data tool
 * matches imported comments to them; none before a build (then only a map matches).
 */
export async function builtArticleSlugs(dir: string): Promise<Set<string>> {
  const text = await readFile(join(dir, CONTENT_INDEX_FILE), 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '{"articles":[]}';
    throw error;
  });
  return new Set((JSON.parse(text) as Pick<ContentIndex, 'articles'>).articles.map(({ slug }) => slug));
}
