import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AstroPrerenderer, PathWithRoute } from 'astro';

/** Hands one built page, by its file under the client folder, to whatever indexes pages. */
type HandPage = (sourcePath: string, content: string) => Promise<void>;

/** The file a page route's path is built as (`build.format: 'directory'`): `fr/articles/x/index.html`. */
function builtHtmlPath(pathname: string): string {
  const folder = pathname.replace(/^\/+|\/+$/g, '');
  return folder === '' ? 'index.html' : `${folder}/index.html`;
}

/** A page path Astro will build: copied from its incremental cache when it has a `cacheKey` that still holds. */
interface Planned {
  sourcePath: string;
  cacheable: boolean;
}

/**
 * Wraps Astro's prerenderer so that every page it builds reaches `hand` in
 * the order Astro builds them, rendered or copied from the last build alike:
 * a rendered page as it is rendered, a copied one (never rendered, so never
 * seen here) read back from `clientDir` once Astro has moved past it. The
 * order is that of a cold build, so the index is the same bytes.
 *
 * Astro builds one page at a time (`build.concurrency` 1, which its
 * incremental build needs): every page before the one being rendered is
 * already on disk. `rest` hands the pages after the last one rendered.
 */
export function pagesInBuildOrder(
  clientDir: string,
  hand: HandPage,
): { wrap: (astroDefault: AstroPrerenderer) => AstroPrerenderer; rest: () => Promise<number> } {
  let planned: Planned[] = [];
  const at = new Map<string, number>();
  let next = 0;
  let handed = 0;
  const catchUp = async (until: number) => {
    for (; next < until; next += 1) {
      const page = planned[next];
      if (!page?.cacheable) continue;
      await hand(page.sourcePath, await readFile(join(clientDir, page.sourcePath), 'utf8'));
      handed += 1;
    }
  };
  const plan = (paths: PathWithRoute[]) => {
    planned = paths
      .filter(({ route }) => route.type === 'page')
      .map(({ pathname, cacheKey }) => ({ sourcePath: builtHtmlPath(pathname), cacheable: cacheKey !== undefined }));
    planned.forEach(({ sourcePath }, index) => at.set(sourcePath, index));
  };
  const wrap = (astroDefault: AstroPrerenderer): AstroPrerenderer => ({
    ...astroDefault,
    getStaticPaths: async () => {
      const paths = await astroDefault.getStaticPaths();
      plan(paths);
      return paths;
    },
    render: async (request, options) => {
      const rendered = await astroDefault.render(request, options);
      const response = rendered instanceof Response ? rendered : rendered.response;
      if (options.routeData.type !== 'page') return rendered;
      const sourcePath = builtHtmlPath(new URL(request.url).pathname);
      const position = at.get(sourcePath);
      if (position !== undefined && position >= next) {
        await catchUp(position);
        next = position + 1;
      }
      if (response.ok) {
        await hand(sourcePath, await response.clone().text());
        handed += 1;
      }
      return rendered;
    },
  });
  const rest = async () => {
    await catchUp(planned.length);
    return handed;
  };
  return { wrap, rest };
}
