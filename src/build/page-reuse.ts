// A full build after a change to pages' code alone (a component, a layout, a page, a style; src/build/build-sources.ts)
// renders again only the routes whose code changed: a route's digest is that of the prerendering bundle's files its
// page reaches, with what every route shares and its styles; a route whose digest is the last build's writes the
// last build's files again, as they are. Astro's own `experimental.incrementalBuild` hashes the same module graph but
// keeps a second copy of every page in a cache of its own and skips the prerenderer the search index is fed by
// (docs/architecture.md, "The build").
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** A relative import of a bundle file, static or dynamic: `from "./x.mjs"`, `import("./x.mjs")`, `import "./x.mjs"`. */
const RELATIVE_IMPORT = /\b(?:from|import)\s*\(?\s*"(\.\.?\/[^"]+)"/g;
/** The entry specifier Astro gives a page's module: `\0virtual:astro:page:` and the component, its dots as `@_@`. */
const PAGE_ENTRY = '\0virtual:astro:page:';

/** The bundle's manifest, as the entry deserializes it. */
const MANIFEST = /^(var _manifest = deserializeManifest\()(.*)(\);)$/m;

interface SerializedManifest {
  routes?: { links?: unknown; scripts?: unknown; styles?: unknown; routeData?: { component?: string } }[];
  entryModules?: unknown;
  assets?: string[];
  key?: unknown;
}

/**
 * The entry's text, but for what differs between two bundles of the same
 * code for one route and not another: each route's styles and scripts (kept
 * by component, for that route's digest), the built file of each module (the
 * files reached say it), the build's random key (no page here renders a
 * server island, whose props it would encrypt), and the order of the
 * assets. A manifest the entry does not hold as expected is left whole,
 * which makes every route new.
 */
function entryWithoutRoutesOwn(text: string): { shared: string; own: Map<string, string> } {
  const own = new Map<string, string>();
  const found = MANIFEST.exec(text);
  let manifest: SerializedManifest;
  try {
    manifest = JSON.parse(found?.[2] ?? '') as SerializedManifest;
  } catch {
    return { shared: text, own };
  }
  for (const route of manifest.routes ?? []) {
    const component = route.routeData?.component ?? '';
    own.set(component, `${own.get(component) ?? ''}${JSON.stringify([route.links, route.scripts, route.styles])}\n`);
    delete route.links;
    delete route.scripts;
    delete route.styles;
  }
  delete manifest.entryModules;
  delete manifest.key;
  manifest.assets?.sort();
  return { shared: text.replace(MANIFEST, (_line, start: string, _json, end: string) => `${start}${JSON.stringify(manifest)}${end}`), own };
}

/** What a route renders with besides its page's code, as Astro's build hands it to the bundle (src/build/render-kit.ts). */
export interface RouteInputs {
  /** Each page's styles, by `${route}&${component}`. */
  pages: readonly (readonly [string, { styles: unknown[] }])[];
  /** The built file of each entry (the prerendering entry, each page's module, the page scripts' bundles). */
  bundles: readonly (readonly [string, string])[];
  scripts: unknown;
  origin: string;
}

/** The files of the bundle at `dir` that `file` imports, and theirs, `file` among them; not past `stopAt`. */
function reached(dir: string, file: string, stopAt: ReadonlySet<string>, texts: Map<string, string>): Set<string> {
  const files = new Set([file]);
  for (const next of files) {
    let text = texts.get(next);
    if (text === undefined) {
      text = readFileSync(join(dir, next), 'utf8');
      texts.set(next, text);
    }
    for (const [, specifier = ''] of text.matchAll(RELATIVE_IMPORT)) {
      const imported = posix.join(posix.dirname(next), specifier);
      if (!stopAt.has(imported)) files.add(imported);
    }
  }
  return files;
}

function digestOf(dir: string, files: Iterable<string>, texts: Map<string, string>): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) hash.update(`${file}\n${texts.get(file) ?? readFileSync(join(dir, file), 'utf8')}\n`);
  return hash.digest('hex');
}

/**
 * The digest of each page component's route (`src/pages/…`) in the
 * prerendering bundle at `dir`, whose entry is `entry`: the same digest means
 * the same pages, as long as the content and the build settings are the same.
 */
export function routeDigests(dir: string, entry: string, inputs: RouteInputs): Record<string, string> {
  const pageFiles = new Map<string, string>();
  for (const [specifier, file] of inputs.bundles) {
    // The build's other bundles (the server's, for pages rendered on request) are listed too.
    if (specifier.startsWith(PAGE_ENTRY) && existsSync(join(dir, file)))
      pageFiles.set(specifier.slice(PAGE_ENTRY.length).replace('@_@', '.'), file);
  }
  const texts = new Map<string, string>();
  const stopAt = new Set(pageFiles.values());
  // What every route shares: the entry (its imports of the pages left out, as their names change with them), what it
  // reaches but the pages, and the browser's bundles.
  const shared = createHash('sha256');
  const entryFiles = reached(dir, entry, stopAt, texts);
  const { shared: entryText, own } = entryWithoutRoutesOwn(texts.get(entry) ?? '');
  shared.update(entryText.replace(RELATIVE_IMPORT, '"…"'));
  entryFiles.delete(entry);
  shared.update(digestOf(dir, entryFiles, texts));
  // Of the other entries, those of the browser's bundles (`_astro/…`), whose names the pages carry; the server's
  // modules (`.mjs`) either are among the files reached, or no prerendered page reads them.
  const otherBundles = inputs.bundles.filter(([specifier, file]) => !specifier.startsWith(PAGE_ENTRY) && !file.endsWith('.mjs')).sort();
  shared.update(JSON.stringify([otherBundles, inputs.scripts, inputs.origin]));
  const sharedDigest = shared.digest('hex');
  const digests: Record<string, string> = {};
  for (const [component, file] of pageFiles) {
    const styles = inputs.pages.filter(([key]) => key.endsWith(`&${component}`));
    digests[component] = createHash('sha256')
      .update(`${sharedDigest}\n${digestOf(dir, reached(dir, file, new Set([entry]), texts), texts)}\n`)
      .update(`${JSON.stringify(styles)}\n${own.get(component) ?? ''}`)
      .digest('hex');
  }
  return digests;
}

/** The last build's pages a build may write again as they are: those of the routes whose digest it shares. */
export interface PageReuse {
  /** The last build's `dist/`, set aside (its `client/` the pages). */
  lastDist: string;
  /** The last build's route digests (routeDigests). */
  lastRoutes: Readonly<Record<string, string>>;
  /** The built files written again as the last build wrote them, relative to `client/`; filled as the build goes. */
  reused: Set<string>;
  /** How many pages and files were rendered anew; filled as the build goes. */
  rendered: number;
}

/** The last build's bytes of a built file, if it wrote one. */
export function lastBuilt(reuse: PageReuse, file: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return readFileSync(join(reuse.lastDist, 'client', file));
  } catch {
    return undefined;
  }
}
