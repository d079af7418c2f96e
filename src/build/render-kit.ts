// What a full build leaves for a content-only one (src/build/content-build.ts): Astro's prerendering bundle, kept
// where Astro would delete it, and the part of Astro's build state it renders a page with. Astro has no public way to
// render a page of a finished build again; this reads it off the build's own prerenderer (`keepingRenderKit`) and sets
// a kept bundle up the same way (`openRenderKit`), through the bundle's own `app` (Astro's `BuildApp`).
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroPrerenderer } from 'astro';
import { StaticPaths } from 'astro/runtime/prerender/static-paths.js';
import { lastBuilt, routeDigests, type PageModules, type PageReuse } from './page-reuse.ts';

/** Where the last full build's kit is kept, and where the build being made writes its own until it is complete. */
export const RENDER_KIT_DIR = '.cache/render-kit';
const NEXT_RENDER_KIT_DIR = '.cache/render-kit.next';
/** Where Astro writes its prerendering bundle (and deletes it after the pages are written). */
const PRERENDER_DIR = 'dist/server/.prerender';
const BUNDLE = 'bundle';
const RECORD = 'kit.json';

type RouteData = Parameters<AstroPrerenderer['render']>[1]['routeData'];

/** What the bundle's `app` is given by Astro's build: the parts of it a page's rendering reads. */
interface BuildInternals {
  /** A page's styles, by `${route}&${component}` (its `<head>`'s inline and linked style sheets). */
  pagesByKeys: Map<string, { styles: unknown[] }>;
  /** The built file of each entry script (the page scripts' bundle among them). */
  entrySpecifierToBundleMap: Map<string, string>;
}
interface BuildOptions {
  origin: string;
  settings: { scripts: unknown[] };
  logger: { options: { destination: LogDestination } };
}
interface LogDestination {
  write(event: { level: string; label: string | null; message: string }): boolean;
}
type BuildApp = ConstructorParameters<typeof StaticPaths>[0] & {
  setInternals(internals: BuildInternals): void;
  setOptions(options: BuildOptions): void;
  render(request: Request, options: { routeData: RouteData }): Promise<Response>;
};

/** The kit's record beside the bundle. */
interface KitRecord {
  /** The bundle's entry file, relative to the bundle. */
  entry: string;
  origin: string;
  pages: [string, { styles: unknown[] }][];
  bundles: [string, string][];
  scripts: unknown[];
  /** Each page component's route digest (src/build/page-reuse.ts). */
  routes: Record<string, string>;
  /** The digest of each module the routes reach (PageModules' `modules`). */
  modules: Readonly<Record<string, string>>;
}

async function prerenderEntry(dir: string): Promise<string> {
  const entry = (await readdir(dir)).find((name) => name.startsWith('prerender-entry') && name.endsWith('.mjs'));
  if (!entry) throw new Error(`Astro's prerendering bundle has no entry in ${dir}`);
  return entry;
}

/** The route digests and module digests the last complete build recorded; undefined when there is no kit. */
export async function lastPageCode(root: string): Promise<Pick<KitRecord, 'routes' | 'modules'> | undefined> {
  const text = await readFile(join(root, RENDER_KIT_DIR, RECORD), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const { routes, modules } = JSON.parse(text) as Partial<KitRecord>;
  return routes && modules ? { routes, modules } : undefined;
}

/** What the build hands the bundle's `app`, as the kit records it. */
function recordOf(entry: string, internals: BuildInternals, options: BuildOptions): Omit<KitRecord, 'routes' | 'modules'> {
  return {
    entry,
    origin: options.origin,
    pages: [...internals.pagesByKeys].map(([key, page]) => [key, { styles: page.styles }]),
    bundles: [...internals.entrySpecifierToBundleMap],
    scripts: options.settings.scripts,
  };
}

/**
 * Astro's prerenderer, which also keeps its bundle and build state in
 * NEXT_RENDER_KIT_DIR once every page is written (`promoteRenderKit` makes
 * it the kit once the whole build is). It reads the state as Astro hands it
 * to the bundle's `app`, which it imports first (the same module Astro
 * imports). With `reuse`, a path of a route whose digest is the last build's
 * is answered with the last build's file, not rendered.
 */
export function keepingRenderKit(
  root: string,
  modules: () => PageModules | undefined,
  reuse?: PageReuse,
): (astroDefault: AstroPrerenderer) => AstroPrerenderer {
  return (astroDefault) => {
    const seen: { internals?: BuildInternals; options?: BuildOptions; entry?: string; record?: KitRecord } = {};
    const recorded = (): KitRecord => {
      const { internals, options, entry } = seen;
      if (!internals || !options || !entry) throw new Error("Astro's prerenderer was not set up as the render kit expects");
      if (!seen.record) {
        const found = modules();
        if (!found) throw new Error("The prerendering bundle's modules were not seen as it was made (pageModulesPlugin)");
        const record = recordOf(entry, internals, options);
        seen.record = { ...record, routes: routeDigests(join(root, PRERENDER_DIR), entry, record, found), modules: found.modules };
      }
      return seen.record;
    };
    return {
      ...astroDefault,
      async render(request, options) {
        const { component, type } = options.routeData;
        const digest = reuse && type !== 'redirect' ? recorded().routes[component] : undefined;
        if (reuse && digest !== undefined && reuse.lastRoutes[component] === digest) {
          const file = builtFileOf(new URL(request.url).pathname, type);
          const body = lastBuilt(reuse, file);
          if (body) {
            reuse.reused.add(file);
            return new Response(body);
          }
        }
        if (reuse) reuse.rendered++;
        return astroDefault.render(request, options);
      },
      async setup() {
        const dir = join(root, PRERENDER_DIR);
        seen.entry = await prerenderEntry(dir);
        const { app } = (await import(pathToFileURL(join(dir, seen.entry)).href)) as { app: BuildApp };
        const setInternals = app.setInternals.bind(app);
        const setOptions = app.setOptions.bind(app);
        app.setInternals = (internals) => {
          seen.internals = internals;
          setInternals(internals);
        };
        app.setOptions = (options) => {
          seen.options = options;
          setOptions(options);
        };
        await astroDefault.setup?.();
        recorded();
      },
      async teardown() {
        await astroDefault.teardown?.();
        const record = recorded();
        const next = join(root, NEXT_RENDER_KIT_DIR);
        await rm(next, { recursive: true, force: true });
        await mkdir(next, { recursive: true });
        await cp(join(root, PRERENDER_DIR), join(next, BUNDLE), { recursive: true });
        await writeFile(join(next, RECORD), JSON.stringify(record));
      },
    };
  };
}

/** Makes the kit the build just kept the one a content-only build uses (the build is complete). */
export async function promoteRenderKit(root: string): Promise<void> {
  await rm(join(root, RENDER_KIT_DIR), { recursive: true, force: true });
  await cp(join(root, NEXT_RENDER_KIT_DIR), join(root, RENDER_KIT_DIR), { recursive: true });
  await rm(join(root, NEXT_RENDER_KIT_DIR), { recursive: true, force: true });
}

/** The file Astro's build writes a path to, relative to the built files (`build.format: 'directory'`): `fr/articles/x/index.html`. */
export function builtFileOf(pathname: string, type: RouteData['type']): string {
  const path = pathname.replace(/^\/+|\/+$/g, '');
  if (type !== 'page') return path;
  return path === '' ? 'index.html' : `${path}/index.html`;
}

/** A path Astro's build renders, with its route. */
interface PrerenderedPath {
  pathname: string;
  route: RouteData;
}

export interface RenderKit {
  /** Every path the build renders, in the order it renders them. */
  paths(): Promise<PrerenderedPath[]>;
  /** A path rendered as the build renders it; null where the build writes no file. */
  render(path: PrerenderedPath): Promise<Buffer | null>;
  /** The file the build writes a path to, relative to the built files (`build.format: 'directory'`). */
  fileOf(path: PrerenderedPath): string;
}

/** Astro's log lines of the kit's renders: its warnings and errors, as the build prints them. */
const stderrDestination: LogDestination = {
  write({ level, label, message }) {
    if (level === 'warn' || level === 'error') process.stderr.write(`[${label ?? 'build'}] ${message}\n`);
    return true;
  },
};

/** The kit kept by the last full build, set up to render; undefined when there is none. */
export async function openRenderKit(root: string): Promise<RenderKit | undefined> {
  const dir = join(root, RENDER_KIT_DIR);
  const text = await readFile(join(dir, RECORD), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const record = JSON.parse(text) as KitRecord;
  const { app } = (await import(pathToFileURL(join(dir, BUNDLE, record.entry)).href)) as { app: BuildApp };
  app.setInternals({ pagesByKeys: new Map(record.pages), entrySpecifierToBundleMap: new Map(record.bundles) });
  app.setOptions({ origin: record.origin, settings: { scripts: record.scripts }, logger: { options: { destination: stderrDestination } } });
  return {
    async paths() {
      // As Astro's build: the first route of a path renders it (its other routes' are conflicts it warns of).
      const paths = new Map<string, PrerenderedPath>();
      for (const path of (await new StaticPaths(app).getAll()) as PrerenderedPath[]) {
        const key = path.pathname.replace(/\/+$/, '');
        if (!paths.has(key)) paths.set(key, path);
      }
      return [...paths.values()];
    },
    async render({ pathname, route }) {
      const url = new URL(route.type === 'page' ? `${pathname.replace(/\/$/, '')}/` : pathname, record.origin);
      const response = await app.render(new Request(url), { routeData: route });
      if (response.status >= 300 && response.status < 400)
        throw new Error(`${pathname} redirects: a content-only build renders no redirect`);
      return response.body ? Buffer.from(await response.arrayBuffer()) : null;
    },
    fileOf: ({ pathname, route }) => builtFileOf(pathname, route.type),
  };
}
