// The articles' HTML, rendered by the content sync as Astro renders Markdown, and kept beside Astro's content store
// rather than in it: the store is written whole after every sync, and at a thousand articles the HTML was most of it
// (hundreds of megabytes, tens of seconds a sync). MDX articles are Astro's own modules and keep its rendering.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';

/** One file an article file's contents, named by the content sync's digest of them. */
const HTML_DIR = '.cache/article-html';

/** An entry type of Astro's (`LoaderContext`'s `entryTypes`, which the glob loader reads): how a file is rendered. */
interface EntryType {
  getRenderFunction?: (config: LoaderContext['config']) => Promise<RenderFunction>;
}
type RenderFunction = (entry: { id: string; filePath?: string; digest?: string | number }) => Promise<Rendered | undefined>;
interface Rendered {
  html: string;
  metadata?: { localImagePaths?: string[] };
}

function htmlFile(root: string, digest: string | number): string {
  return join(root, HTML_DIR, `${digest}.html`);
}

/**
 * `loader` (Astro's glob loader) with its Markdown files rendered into
 * HTML_DIR instead of its store: an entry is stored with its body and data,
 * and its HTML written under its digest. An entry whose HTML is missing is
 * taken as new (rendered again). Once loaded, HTML no entry names is removed.
 * A Markdown file that names an image beside it fails the sync: images go in
 * `public/images/` (docs/writing.md).
 */
export function htmlBesideStore(loader: Loader): Loader {
  return {
    ...loader,
    async load(context) {
      const root = fileURLToPath(context.config.root);
      await mkdir(join(root, HTML_DIR), { recursive: true });
      const failures: string[] = [];
      const entryTypes = (context as LoaderContext & { entryTypes: Map<string, EntryType> }).entryTypes;
      const markdown = entryTypes.get('.md');
      const rendering = markdown?.getRenderFunction?.bind(markdown);
      const writingHtml: EntryType = {
        ...markdown,
        async getRenderFunction(config) {
          const render = await (rendering as NonNullable<typeof rendering>)(config);
          return async (entry) => {
            const rendered = await render(entry);
            const images = rendered?.metadata?.localImagePaths ?? [];
            if (images.length > 0) {
              const file = entry.filePath ? relative(root, entry.filePath) : entry.id;
              failures.push(`${file} names an image beside it (${images.join(', ')}): images go in public/images/`);
            } else if (rendered && entry.digest !== undefined) await writeFile(htmlFile(root, entry.digest), rendered.html);
            return undefined;
          };
        },
      };
      const store = new Proxy(context.store, {
        get(target, property, receiver) {
          if (property === 'get') {
            return (key: string) => {
              const entry = target.get(key);
              const stale = entry?.filePath?.endsWith('.md') && entry.digest !== undefined && !existsSync(htmlFile(root, entry.digest));
              return stale ? undefined : entry;
            };
          }
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      await loader.load({
        ...context,
        store,
        entryTypes: new Map([...entryTypes, ...(rendering ? [['.md', writingHtml] as const] : [])]),
      } as LoaderContext);
      if (failures.length > 0) throw new Error(`The articles could not be rendered: ${failures.join('; ')}`);
      const named = new Set(context.store.values().map(({ digest }) => `${digest}.html`));
      for (const file of await readdir(join(root, HTML_DIR))) if (!named.has(file)) await rm(join(root, HTML_DIR, file), { force: true });
    },
  };
}

/** The HTML of a Markdown article entry, as the content sync rendered it. */
export async function articleHtml(entry: { id: string; digest?: string | number }): Promise<string> {
  const file = htmlFile(process.cwd(), entry.digest ?? '');
  return readFile(file, 'utf8').catch((error: unknown) => {
    throw new Error(`The HTML of ${entry.id} is missing (${file}): build again with npm run build -- --full`, { cause: error });
  });
}
