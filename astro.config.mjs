// @ts-check
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import node from '@astrojs/node';
import { markdownProcessor } from './src/build/markdown-processor.ts';
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

export default defineConfig({
  site,
  // The content layer's cache in the project, not in node_modules: copies of the project that share one
  // node_modules (the tests', the bench's) would otherwise read and write one another's articles.
  cacheDir: './.cache/astro',
  output: 'static',
  trailingSlash: 'ignore',
  adapter: frontAdapter(),
  integrations: [mdx()],
  session: false,
  // Astro's check covers form bodies only; the write guard checks Origin on every write itself.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
  build: { format: 'directory', inlineStylesheets: 'always' },
  // Code follows the reader's colour scheme: light colours inline, dark ones as --shiki-dark (see global.css); the
  // high-contrast themes keep every token readable against its background (WCAG AA).
  markdown: {
    processor: markdownProcessor(),
    shikiConfig: { themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' } },
  },
  vite: {
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
