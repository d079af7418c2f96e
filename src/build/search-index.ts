import { join } from 'node:path';
import type { AstroIntegration, AstroPrerenderer } from 'astro';
import * as pagefind from 'pagefind';

/** Pages handed to Pagefind and not yet taken in: past this many, the build waits for it (memory stays bounded). */
const MOST_WAITING = 512;

/**
 * The site search's index, written into the built site by Pagefind: one
 * index per language (it reads each page's `<html lang>`), of the article
 * bodies only (`data-pagefind-body`). Searching then needs no server: the
 * browser fetches the index files of its page's language.
 *
 * Each page is handed over as Astro renders it (`integration`), so that
 * Pagefind, a process of its own, indexes on another core while Astro
 * renders the next pages, rather than reading every page again afterwards.
 */
export interface SearchIndex {
  /** Hands the build's pages to the index as they are rendered. */
  integration: AstroIntegration;
  /** Writes the index under `clientDir/pagefind` once every page is in, and stops Pagefind. */
  write(clientDir: string): Promise<void>;
  /** Stops Pagefind, written or not. */
  close(): Promise<void>;
}

/** The file a page route's path is built as (`build.format: 'directory'`): `fr/articles/x/index.html`. */
function builtHtmlPath(pathname: string): string {
  const folder = pathname.replace(/^\/+|\/+$/g, '');
  return folder === '' ? 'index.html' : `${folder}/index.html`;
}

function failure(what: string, errors: readonly string[]): Error {
  return new Error(`The search index could not ${what}: ${errors.join('; ')}`);
}

export async function startSearchIndex(): Promise<SearchIndex> {
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw failure('be started', errors);
  const waiting = new Set<Promise<void>>();
  const failed: string[] = [];
  const add = (sourcePath: string, content: string): Promise<void> => {
    const adding = index.addHTMLFile({ sourcePath, content }).then(
      (answer) => {
        failed.push(...answer.errors.map((error) => `${sourcePath}: ${error}`));
      },
      (error: unknown) => {
        failed.push(`${sourcePath}: ${String(error)}`);
      },
    );
    const tracked = adding.finally(() => waiting.delete(tracked));
    waiting.add(tracked);
    return waiting.size >= MOST_WAITING ? Promise.race(waiting) : Promise.resolve();
  };
  let pages = 0;
  const indexing = (astroDefault: AstroPrerenderer): AstroPrerenderer => ({
    ...astroDefault,
    render: async (request, options) => {
      const rendered = await astroDefault.render(request, options);
      const response = rendered instanceof Response ? rendered : rendered.response;
      if (options.routeData.type === 'page' && response.ok) {
        pages += 1;
        await add(builtHtmlPath(new URL(request.url).pathname), await response.clone().text());
      }
      return rendered;
    },
  });
  let setPrerenderer: ((wrap: (astroDefault: AstroPrerenderer) => AstroPrerenderer) => void) | undefined;
  const integration: AstroIntegration = {
    name: 'longhand:search-index',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'longhand:search-index',
                // Astro builds its own prerendering entry only while no prerenderer is set when the bundles' settings
                // are made: the wrapper is set after that, before the pages are rendered (the build's last step).
                buildApp: {
                  order: 'pre',
                  handler: () => {
                    setPrerenderer?.(indexing);
                    return Promise.resolve();
                  },
                },
              },
            ],
          },
        });
      },
      'astro:build:start': (options) => {
        setPrerenderer = options.setPrerenderer;
      },
    },
  };
  return {
    integration,
    async write(clientDir) {
      try {
        await Promise.all(waiting);
        if (pages === 0) failed.push('no page reached it while the site was built');
        if (failed.length > 0) throw failure('read the site', failed);
        const written = await index.writeFiles({ outputPath: join(clientDir, 'pagefind') });
        if (written.errors.length > 0) throw failure('be written', written.errors);
      } finally {
        await pagefind.close();
      }
    },
    async close() {
      await pagefind.close();
    },
  };
}
