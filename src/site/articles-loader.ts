// The articles' loader: Astro's glob loader, with each article's body and HTML kept beside Astro's content store
// (src/server/articles/kept-beside-store.ts), and a content-only build's sync reading only the articles it names.
// MDX articles are Astro's own modules and keep its rendering.
import { existsSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glob, type Loader, type LoaderContext } from 'astro/loaders';
import { KEPT_BESIDE_STORE_DIR, keptFile, keptNames } from '../server/articles/kept-beside-store.ts';
import { syncScope } from '../server/articles/source.ts';

/** An entry type of Astro's (`LoaderContext`'s `entryTypes`, which the glob loader reads): how a file is rendered. */
interface EntryType {
  getRenderFunction?: (config: LoaderContext['config']) => Promise<RenderFunction>;
}
type RenderFunction = (entry: { id: string; filePath?: string; digest?: string | number }) => Promise<Rendered | undefined>;
interface Rendered {
  html: string;
  metadata?: { localImagePaths?: string[] };
}
type GlobOptions = Parameters<typeof glob>[0];
type StoredEntry = Parameters<LoaderContext['store']['set']>[0];

/**
 * Astro's glob loader of the articles (`options`: a folder an article, its
 * id `<slug>/<lang>`), keeping each entry's body and its Markdown file's HTML
 * beside the store under the entry's digest: the store holds the rest. An
 * entry whose kept files are missing is taken as new (read and rendered
 * again). Once loaded, kept files no entry names are removed. A Markdown file
 * that names an image beside it fails the sync: images go in
 * `public/images/` (docs/writing.md).
 *
 * A content-only build's sync reads only the folders it names (syncScope):
 * the loader then sees only their files and their entries, and leaves every
 * other entry as it is, unread.
 */
export function articlesLoader(options: GlobOptions & { pattern: string[] }): Loader {
  const whole = glob(options);
  return {
    ...whole,
    async load(context) {
      const scope = syncScope();
      const loader = scope ? glob({ ...options, pattern: [...scope].map((slug) => `${slug}/*.{md,mdx}`) }) : whole;
      const root = fileURLToPath(context.config.root);
      await mkdir(join(root, KEPT_BESIDE_STORE_DIR), { recursive: true });
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
            } else if (rendered && entry.digest !== undefined) await writeFile(keptFile(root, entry.digest, 'html'), rendered.html);
            return undefined;
          };
        },
      };
      const isKept = (entry: StoredEntry) =>
        entry.digest !== undefined &&
        existsSync(keptFile(root, entry.digest, 'body')) &&
        (!entry.filePath?.endsWith('.md') || existsSync(keptFile(root, entry.digest, 'html')));
      const inScope = (id: string) => !scope || scope.has(id.slice(0, id.indexOf('/')));
      const store = new Proxy(context.store, {
        get(target, property, receiver) {
          // The loader removes the entries whose file it did not see: it is shown those in its scope.
          if (property === 'keys') return () => target.keys().filter(inScope);
          if (property === 'get') {
            return (key: string) => {
              const entry = target.get(key);
              return entry && isKept(entry) ? entry : undefined;
            };
          }
          if (property === 'set') {
            return ({ body, ...entry }: StoredEntry) => {
              if (body !== undefined && entry.digest !== undefined) writeFileSync(keptFile(root, entry.digest, 'body'), body);
              return target.set(entry);
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
      const named = new Set(context.store.values().flatMap(({ digest }) => (digest === undefined ? [] : keptNames(digest))));
      const dir = join(root, KEPT_BESIDE_STORE_DIR);
      for (const file of await readdir(dir)) if (!named.has(file)) await rm(join(dir, file), { force: true });
    },
  };
}
