// @ts-check
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import node from '@astrojs/node';
import { markdownProcessor, SHIKI_CONFIG } from './src/build/markdown-processor.ts';
import { setting } from './src/server/settings/environment.ts';

const site = setting('SITE_URL');

/**
 * The Node adapter in middleware mode, with its server entrypoint swapped for
 * ours: it serves the Astro app from our front server, which renders into a
 * Web Response it can cache, instead of a handler that writes to a socket.
 */
function frontAdapter() {
  const adapter = node({ mode: 'middleware' });
  const configDone = adapter.hooks['astro:config:done'];
  const entrypoint = fileURLToPath(new URL('./src/server/entry/astro-entry.ts', import.meta.url));
  adapter.hooks['astro:config:done'] = (options) =>
    configDone?.({
      ...options,
      setAdapter: (settings) => options.setAdapter({ ...settings, serverEntrypoint: entrypoint }),
    });
  return adapter;
}

/** Where Astro keeps its caches: in the project, not in node_modules (see `cacheDir` below). */
const CACHE_DIR = './.cache/astro';

/**
 * Astro's content store (every article's body and HTML, hundreds of megabytes
 * at a thousand articles) kept out of the built code. Astro makes it a module
 * holding the store as one string, which the bundler reads once a bundle and
 * V8 compiles when the prerendering first reads content: at an archive's size,
 * more than the rest of the build. The prerendering reads the store's file instead,
 * written by the content sync before the bundling starts; the built server
 * goes without it, since the running site reads the build's content files
 * (src/server/articles/built-content.ts) and never the store. `astro dev`
 * keeps Astro's own module.
 */
function contentStoreOutOfBundles() {
  const storeModule = 'astro:data-layer-content';
  const replaced = '\0longhand:content-store';
  const storeFile = fileURLToPath(new URL(`${CACHE_DIR}/data-store.json`, import.meta.url));
  /** @type {Record<string, () => string>} */
  const replacements = {
    ssr: () => 'export default new Map();',
    prerender: () =>
      `import { readFileSync } from 'node:fs';\nexport default JSON.parse(readFileSync(${JSON.stringify(storeFile)}, 'utf8'));`,
  };
  // Both hooks run before Astro's own (`order: 'pre'`), which would read and check the whole store for each bundle.
  return {
    name: 'longhand:content-store-out-of-bundles',
    apply: 'build',
    /** @param {{ name: string }} environment */
    applyToEnvironment: (environment) => environment.name in replacements,
    resolveId: {
      order: 'pre',
      /** @param {string} id */
      handler: (id) => (id === storeModule && existsSync(storeFile) ? replaced : undefined),
    },
    load: {
      order: 'pre',
      /** @this {{ environment: { name: string } }} @param {string} id */
      handler(id) {
        return id === replaced ? { code: replacements[this.environment.name]?.() ?? '', map: null } : undefined;
      },
    },
  };
}

export default defineConfig({
  site,
  // The content layer's cache in the project, not in node_modules: copies of the project that share one
  // node_modules (the tests', the bench's) would otherwise read and write one another's articles.
  cacheDir: CACHE_DIR,
  output: 'static',
  trailingSlash: 'ignore',
  adapter: frontAdapter(),
  integrations: [mdx()],
  session: false,
  // Astro's check covers form bodies only; the write guard checks Origin on every write itself.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
  build: { format: 'directory', inlineStylesheets: 'always' },
  markdown: { processor: markdownProcessor(), shikiConfig: SHIKI_CONFIG },
  vite: {
    plugins: [contentStoreOutOfBundles()],
    build: {
      // Every script a file of its own: the Content-Security-Policy allows the site's scripts, never inline ones.
      assetsInlineLimit: 0,
      rollupOptions: {
        // MDX modules carry Astro's own "use astro:head-inject" directive; the bundler's note about it is noise.
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
  },
});
