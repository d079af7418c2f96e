// A full build after a change to pages' code alone (a component, a layout, a page, a style; src/build/build-sources.ts)
// renders again only the routes whose code changed: a route's digest is that of the modules its page reaches, as Vite
// bundles them for the prerendering (before they are split into chunks, which a change elsewhere can regroup), with
// what every route shares and its styles; a route whose digest is the last build's writes the last build's files
// again, as they are. Astro's own `experimental.incrementalBuild` hashes the module graph the same way but keeps a
// second copy of every page in a cache of its own and skips the prerenderer the search index is fed by
// (docs/architecture.md, "The build").
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The module Astro makes of each page, which imports its component: `\0virtual:astro:page:` and the component, its dots as `@_@`. */
const PAGE_MODULE = '\0virtual:astro:page:';

/** The bundle's manifest, as the entry deserializes it. */
const MANIFEST = /^var _manifest = deserializeManifest\((.*)\);$/m;

interface SerializedManifest {
  routes?: { links?: unknown; scripts?: unknown; styles?: unknown; routeData?: { component?: string } }[];
  entryModules?: unknown;
  assets?: string[];
  key?: unknown;
}

/**
 * The entry's manifest, but for what differs between two bundles of the same
 * code for one route and not another: each route's styles and scripts (kept
 * by component, for that route's digest), the built file of each module
 * (the modules' digests say what they hold), the build's random key (no page
 * here renders a server island, whose props it would encrypt), and the order
 * of the assets. An entry that does not hold a manifest as expected is taken
 * whole, which makes every route new.
 */
function manifestWithoutRoutesOwn(text: string): { shared: string; own: Map<string, string> } {
  const own = new Map<string, string>();
  let manifest: SerializedManifest;
  try {
    manifest = JSON.parse(MANIFEST.exec(text)?.[1] ?? '') as SerializedManifest;
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
  return { shared: JSON.stringify(manifest), own };
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

/** The prerendering bundle's modules as digests: each page component's, and that of what every route shares. */
export interface PageModules {
  /** What the bundle's entries reach, the pages' modules left out. */
  shared: string;
  /** By page component (`src/pages/…`): what its page's module reaches. */
  pages: ReadonlyMap<string, string>;
  /** Every module either reaches, by id: the digest of its code. */
  modules: Readonly<Record<string, string>>;
}

/** What Vite's bundler tells a plugin of the modules it bundled (its plugin context, as `generateBundle` has it). */
interface ModuleGraph {
  getModuleIds(): Iterable<string>;
  getModuleInfo(id: string): {
    code: string | null;
    importedIds: readonly string[];
    dynamicallyImportedIds: readonly string[];
    isEntry: boolean;
  } | null;
}

/** The digests of the bundle's modules: each module's id and code, over the modules reached from where it starts. */
function pageModulesOf(graph: ModuleGraph): PageModules {
  const codeDigests = new Map<string, string>();
  const codeDigest = (id: string): string => {
    let digest = codeDigests.get(id);
    if (digest === undefined) {
      digest = createHash('sha256')
        .update(`${id}\n${graph.getModuleInfo(id)?.code ?? ''}`)
        .digest('hex');
      codeDigests.set(id, digest);
    }
    return digest;
  };
  const reached = (from: readonly string[], stopAt: (id: string) => boolean): string => {
    const ids = new Set(from);
    for (const id of ids) {
      const info = graph.getModuleInfo(id);
      for (const next of [...(info?.importedIds ?? []), ...(info?.dynamicallyImportedIds ?? [])]) if (!stopAt(next)) ids.add(next);
    }
    const hash = createHash('sha256');
    for (const id of [...ids].sort()) hash.update(`${codeDigest(id)}\n`);
    return hash.digest('hex');
  };
  const ids = [...graph.getModuleIds()];
  const isPage = (id: string) => id.startsWith(PAGE_MODULE);
  const pages = new Map<string, string>();
  for (const id of ids.filter(isPage))
    pages.set(
      id.slice(PAGE_MODULE.length).replace('@_@', '.'),
      reached([id], () => false),
    );
  const shared = reached(
    ids.filter((id) => graph.getModuleInfo(id)?.isEntry === true && !isPage(id)),
    isPage,
  );
  return { shared, pages, modules: Object.fromEntries([...codeDigests].sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/**
 * A Vite plugin of the prerendering's bundling that hands over the digests
 * of its modules (`found`), once they are bundled, before any page is rendered.
 */
export function pageModulesPlugin(found: (modules: PageModules) => void) {
  return {
    name: 'longhand:page-modules',
    apply: 'build' as const,
    applyToEnvironment: (environment: { name: string }) => environment.name === 'prerender',
    generateBundle(this: ModuleGraph) {
      found(pageModulesOf(this));
    },
  };
}

/**
 * The digest of each page component's route (`src/pages/…`) in the
 * prerendering bundle at `dir`, whose entry is `entry` and whose modules are
 * `modules`: the same digest means the same pages, as long as the content
 * and the build settings are the same.
 */
export function routeDigests(dir: string, entry: string, inputs: RouteInputs, modules: PageModules): Record<string, string> {
  // What every route shares: the manifest, the modules the entries reach but the pages, and the browser's bundles
  // (`_astro/…`), whose names the pages carry.
  const { shared: manifest, own } = manifestWithoutRoutesOwn(readFileSync(join(dir, entry), 'utf8'));
  const otherBundles = inputs.bundles.filter(([specifier, file]) => !specifier.startsWith(PAGE_MODULE) && !file.endsWith('.mjs')).sort();
  const shared = createHash('sha256')
    .update(`${manifest}\n${modules.shared}\n`)
    .update(JSON.stringify([otherBundles, inputs.scripts, inputs.origin]))
    .digest('hex');
  const digests: Record<string, string> = {};
  for (const [component, page] of modules.pages) {
    const styles = inputs.pages.filter(([key]) => key.endsWith(`&${component}`));
    digests[component] = createHash('sha256')
      .update(`${shared}\n${page}\n${JSON.stringify(styles)}\n${own.get(component) ?? ''}`)
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
  /** The last build's modules (PageModules' `modules`). */
  lastModules: Readonly<Record<string, string>>;
  /** The built files written again as the last build wrote them, relative to `client/`; filled as the build goes. */
  reused: Set<string>;
  /** How many pages and files were rendered anew; filled as the build goes. */
  rendered: number;
}

/** Most modules a build names as changed; past them, it counts them. */
const NAMED_MODULES = 5;

/**
 * The modules whose code differs between two builds' (added or gone too), as
 * a build names them to say what made it render pages again: paths relative
 * to `root`, a few of them.
 */
export function changedModules(root: string, last: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): string {
  const changed = [...new Set([...Object.keys(last), ...Object.keys(now)])].filter((id) => last[id] !== now[id]).sort();
  if (changed.length === 0) return 'none (styles or scripts only)';
  const named = changed.slice(0, NAMED_MODULES).map((id) => (id.startsWith(`${root}/`) ? id.slice(root.length + 1) : id.replace('\0', '')));
  return `${named.join(', ')}${changed.length > named.length ? ` and ${changed.length - named.length} more` : ''}`;
}

/** The last build's bytes of a built file, if it wrote one. */
export function lastBuilt(reuse: PageReuse, file: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return readFileSync(join(reuse.lastDist, 'client', file));
  } catch {
    return undefined;
  }
}
