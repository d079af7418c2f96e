import { createHash } from 'node:crypto';
import { copyFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AstroPrerenderer } from 'astro';
import * as pagefind from 'pagefind';
import { lastBuilt, type PageReuse } from './page-reuse.ts';
import { builtFileOf } from './render-kit.ts';

/** Pages handed to Pagefind and not yet taken in: past this many, the build waits for it (memory stays bounded). */
const MOST_WAITING = 512;

/**
 * The search index's parts: each article goes to one, by its slug, and a
 * content-only build makes again only the parts of the articles it renders.
 * The browser merges them (src/site/client/site-search.ts).
 */
const SEARCH_PARTS = 16;
/** Where the parts are served from, each in a folder named by its number, with the list of them. */
export const SEARCH_DIR = 'pagefind';
const PARTS_LIST = 'parts.json';
/** The files of Pagefind's interface the search page loads from SEARCH_DIR itself (src/pages/[...lang]/search.astro). */
const INTERFACE_FILES = ['pagefind-ui.js', 'pagefind-ui.css'];
/** What Pagefind writes into each part that the site never loads. */
const UNUSED_FILES = /^pagefind-(component|modular)-ui\.|^pagefind-highlight\.js$/;

/** The part of the search index an article is in. */
export function searchPartOf(slug: string): number {
  return createHash('sha256').update(slug).digest().readUInt32BE(0) % SEARCH_PARTS;
}

/** The slug of a built article page (`fr/articles/x/index.html`); undefined for any other file. */
function articleSlugOf(file: string): string | undefined {
  return /^(?:[a-z]{2,3}\/)?articles\/([^/]+)\/index\.html$/.exec(file)?.[1];
}

/** The part of the search index a built file would go to: undefined for a file that is no article's page. */
function searchPartOfFile(file: string): number | undefined {
  const slug = articleSlugOf(file);
  return slug === undefined ? undefined : searchPartOf(slug);
}

/**
 * The site search's index, written into the built site by Pagefind: in
 * parts (SEARCH_PARTS), each with one index per language (it reads each
 * page's `<html lang>`), of the article bodies only (`data-pagefind-body`:
 * a page without it, or a scheduled article's, is never handed over).
 * Searching then needs no server: the browser fetches the index files of its
 * page's language.
 *
 * Pagefind's index depends on the order pages reach it: every build hands
 * them over in the order Astro renders them. A full build hands each page
 * over as Astro renders it (`indexing`), so that Pagefind, a process of its
 * own, indexes on another core while Astro renders the next pages; a
 * content-only build (src/build/content-build.ts) hands over the pages of
 * the parts it makes again, in the same order, with `add`.
 */
export interface SearchIndex {
  /** Hands a built page over (`file`: its path among the built files); resolves once another may follow. */
  add: (file: string, html: string) => Promise<void>;
  /** Astro's prerenderer, handing each page over as it is rendered. */
  indexing: (astroDefault: AstroPrerenderer) => AstroPrerenderer;
  /**
   * Writes each part that was handed a page into `dir/<part>`, once every
   * page is in, and stops Pagefind; resolves with whether the parts were
   * made, or kept as the last build made them (see `reuse`).
   */
  write: (dir: string) => Promise<'made' | 'kept'>;
  /** Stops Pagefind, written or not. */
  close: () => Promise<void>;
}

function failure(what: string, errors: readonly string[]): Error {
  return new Error(`The search index could not ${what}: ${errors.join('; ')}`);
}

type PagefindIndex = NonNullable<Awaited<ReturnType<typeof pagefind.createIndex>>['index']>;

/**
 * How a build that reuses pages (src/build/page-reuse.ts) hands them over:
 * a page written again as the last build wrote it is held back until a page
 * the index `takes` is rendered anew; then every page held is handed over,
 * in order, and every later one as it comes. `unchanged` tells whether no
 * page the index takes was rendered anew.
 */
function feedingHeldBack(
  reuse: PageReuse,
  takes: (file: string, html: string) => boolean,
  add: (file: string, html: string) => Promise<void>,
): { hand: (file: string, response: Response) => Promise<void>; unchanged: () => boolean } {
  let held: string[] | undefined = [];
  return {
    async hand(file, response) {
      if (held && reuse.reused.has(file)) {
        held.push(file);
        return;
      }
      const html = await response.clone().text();
      if (held && takes(file, html)) {
        for (const page of held) await add(page, new TextDecoder().decode(lastBuilt(reuse, page)));
        held = undefined;
      }
      await add(file, html);
    },
    unchanged: () => held !== undefined && held.length > 0,
  };
}

/**
 * A search index of the parts `parts` (every part when undefined): pages of
 * other parts are not taken. With `reuse` (src/build/page-reuse.ts), the
 * pages written again as the last build wrote them are held back until a
 * page it takes is rendered anew: when none is, every page it takes is the
 * last build's, in the same order, and so is its index, which `write` moves
 * into place.
 */
export function startSearchIndex(parts?: ReadonlySet<number>, reuse?: PageReuse): SearchIndex {
  const indexes = new Map<number, Promise<PagefindIndex>>();
  const indexOf = (part: number): Promise<PagefindIndex> => {
    let index = indexes.get(part);
    if (!index) {
      index = pagefind.createIndex({}).then(({ index: created, errors }) => {
        if (!created) throw failure('be started', errors);
        return created;
      });
      indexes.set(part, index);
    }
    return index;
  };
  const waiting = new Set<Promise<void>>();
  const failed: string[] = [];
  /** The part a page goes to; undefined for a page the index does not take. */
  const partTaking = (file: string, html: string): number | undefined => {
    const part = searchPartOfFile(file);
    return part === undefined || (parts && !parts.has(part)) || !html.includes('data-pagefind-body') ? undefined : part;
  };
  const add = (file: string, html: string): Promise<void> => {
    const part = partTaking(file, html);
    if (part === undefined) return Promise.resolve();
    const adding = indexOf(part)
      .then((index) => index.addHTMLFile({ sourcePath: file, content: html }))
      .then(
        (answer) => {
          failed.push(...answer.errors.map((error) => `${file}: ${error}`));
        },
        (error: unknown) => {
          failed.push(`${file}: ${String(error)}`);
        },
      );
    const tracked = adding.finally(() => waiting.delete(tracked));
    waiting.add(tracked);
    return waiting.size >= MOST_WAITING ? Promise.race(waiting) : Promise.resolve();
  };
  const feeding = reuse
    ? feedingHeldBack(reuse, (file, html) => partTaking(file, html) !== undefined, add)
    : { hand: async (file: string, response: Response) => add(file, await response.clone().text()), unchanged: () => false };
  return {
    add,
    indexing: (astroDefault) => ({
      ...astroDefault,
      render: async (request, options) => {
        const rendered = await astroDefault.render(request, options);
        const response = rendered instanceof Response ? rendered : rendered.response;
        if (options.routeData.type === 'page' && response.ok)
          await feeding.hand(builtFileOf(new URL(request.url).pathname, 'page'), response);
        return rendered;
      },
    }),
    async write(dir) {
      if (reuse && feeding.unchanged()) {
        await pagefind.close();
        await rm(dir, { recursive: true, force: true });
        await rename(join(reuse.lastDist, 'client', SEARCH_DIR), dir);
        return 'kept';
      }
      try {
        await Promise.all(waiting);
        if (failed.length > 0) throw failure('read the site', failed);
        for (const [part, index] of [...indexes].sort(([a], [b]) => a - b)) {
          const outputPath = join(dir, String(part));
          const written = await (await index).writeFiles({ outputPath });
          if (written.errors.length > 0) throw failure('be written', written.errors);
          for (const name of await readdir(outputPath)) if (UNUSED_FILES.test(name)) await rm(join(outputPath, name));
        }
      } finally {
        await pagefind.close();
      }
      return 'made';
    },
    async close() {
      await pagefind.close();
    },
  };
}

/**
 * Lists the parts in `clientDir/SEARCH_DIR` for the browser, and puts
 * Pagefind's interface beside them (the same in every part), from the first;
 * resolves with the files it wrote, relative to `clientDir`.
 */
export async function listSearchParts(clientDir: string): Promise<string[]> {
  const dir = join(clientDir, SEARCH_DIR);
  const parts = (await readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isDirectory() && /^\d+$/.test(entry.name))
    .map((entry) => Number(entry.name))
    .sort((a, b) => a - b);
  await writeFile(join(dir, PARTS_LIST), JSON.stringify(parts.map((part) => `/${SEARCH_DIR}/${part}/`)));
  const first = parts[0];
  if (first === undefined) return [`${SEARCH_DIR}/${PARTS_LIST}`];
  for (const file of INTERFACE_FILES) await copyFile(join(dir, String(first), file), join(dir, file));
  return [PARTS_LIST, ...INTERFACE_FILES].map((file) => `${SEARCH_DIR}/${file}`);
}
