import type { IncomingMessage } from 'node:http';
import type { LanguageCode } from '../../i18n/languages.ts';
import { twinPath } from '../http/negotiation.ts';
import { pageQueryParameters } from '../http/site-paths.ts';
import { languageOfPath } from './not-found.ts';
import { keptUrl, type ResponseCache } from './response-cache.ts';
import type { Route } from './route.ts';
import { pageHeadersOf, targetOf, type PageContext } from './static-route.ts';
import { sendStored, type StoredResponse } from './stored-response.ts';

/** The key a page's answer is kept under: the path it is answered from and the query parameters the page reads. */
function keyOf(url: URL, target: string): string {
  return `${target}${keptUrl(url, pageQueryParameters(target)).search}`;
}

/** The key of the answer to a page request (see keyOf). */
export function pageKey(req: IncomingMessage, url: URL): string {
  return keyOf(url, targetOf(url.pathname, twinPath(url.pathname), req.headers.accept));
}

/**
 * Every GET and HEAD no built file answers, rendered by Astro: kept when its
 * own Cache-Control lets a shared cache keep it, keyed by the query
 * parameters the page reads, and an address found missing answered from
 * `missing` while it is kept there. A path Astro finds missing, in a
 * language that has the site's 404 page, is passed on to the not-found
 * route; anything else it answers.
 */
export function renderRoute(
  context: PageContext,
  notFoundPages: ReadonlyMap<LanguageCode, StoredResponse>,
  /** Where the not-found route keeps its answers. */
  missing: ResponseCache,
): Route {
  const { cache, isCurrent, render, site, base } = context;
  return async (req, res, url, served) => {
    const twin = twinPath(url.pathname);
    const target = targetOf(url.pathname, twin, req.headers.accept);
    const pageHeaders = pageHeadersOf(twin, served, context.webmention);
    const key = keyOf(url, target);
    const hit = cache.get(key) ?? missing.get(key);
    if (hit && (await isCurrent(hit.revision)))
      return sendStored(req, res, hit.response, {
        base,
        varyAccept: twin !== null,
        extraHeaders: { ...(hit.revision ? {} : { Age: String(hit.age) }), ...(hit.response.status === 200 ? pageHeaders : {}) },
      });
    // Joined as text: a path such as `//host/x` must stay a path on this site.
    const response: StoredResponse = await cache.store(key, await render(req, new URL(`${site}${key}`)));
    // Pages respond to an unknown path with the site's own 404 page, whoever found it missing.
    if (response.status === 404 && notFoundPages.has(languageOfPath(url.pathname))) return null;
    return sendStored(req, res, response, { base, varyAccept: twin !== null, extraHeaders: response.status === 200 ? pageHeaders : {} });
  };
}
