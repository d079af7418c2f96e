// What the content sync keeps of an article beside Astro's content store rather than in it (src/site/articles-loader.ts
// writes it): its Markdown body and, for a Markdown file, its HTML, each in a file named by the sync's digest of the
// article's file. Astro writes its store whole after every sync, and the prerendering reads it whole: at a thousand
// articles, bodies and HTML were nearly all of it (hundreds of megabytes, seconds a sync).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const KEPT_BESIDE_STORE_DIR = '.cache/article-files';

/** What is kept of an entry, by the extension of its file. */
const EXTENSIONS = { body: 'md', html: 'html' } as const;
export type KeptPart = keyof typeof EXTENSIONS;

/** The file `part` of an article entry whose digest is `digest` is kept in, under the project's folder `root`. */
export function keptFile(root: string, digest: string | number, part: KeptPart): string {
  return join(root, KEPT_BESIDE_STORE_DIR, `${digest}.${EXTENSIONS[part]}`);
}

/** The names of the files kept of an entry, for the sync to remove every other. */
export function keptNames(digest: string | number): string[] {
  return Object.values(EXTENSIONS).map((extension) => `${digest}.${extension}`);
}

/**
 * A part of an article entry kept beside the store, read while Astro builds
 * (in the project's folder, its working one). Synchronous: the prerendering
 * reads every article's body once, from the page cache.
 */
function readKept(entry: { id: string; digest?: string | number }, part: KeptPart): string {
  const file = keptFile(process.cwd(), entry.digest ?? '', part);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`The ${part} of ${entry.id} is missing (${file}): build again with npm run build -- --full`, { cause: error });
  }
}

/** An article entry's Markdown body, front matter removed. */
export function articleBody(entry: { id: string; digest?: string | number }): string {
  return readKept(entry, 'body');
}

/** A Markdown article entry's HTML, as the content sync rendered it. */
export function articleHtml(entry: { id: string; digest?: string | number }): string {
  return readKept(entry, 'html');
}
