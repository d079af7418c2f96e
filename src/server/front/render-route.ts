import type { LanguageCode } from '../../i18n/languages.ts';
import { twinPath } from '../http/negotiation.ts';
import { pageQueryParameters } from '../http/site-paths.ts';
import { languageOfPath } from './not-found.ts';
import { keptUrl, type ResponseCache } from './response-cache.ts';
import type { Route } from './route.ts';
import { pageHeadersOf, targetOf, type PageContext } from './static-route.ts';
import { sendStored, type StoredResponse } from './stored-response.ts';

/**
 * How long a "page not found" response is kept for its address. Articles that
 * appear on their date are built files, looked up before this cache.
 */
const NOT_FOUND_SECONDS = 60;

/** Missing addresses whose not-found page is kept, apart from the renders, so that a crawler's misses push no render out. */
export const MISSING_ENTRIES = 1000;

/**
 * Every GET and HEAD no built file answers, rendered by Astro: kept when its
 * own Cache-Control lets a shared cache keep it, keyed by the query
 * parameters the page reads. A path Astro finds missing is answered with
 * the site's 404 page in the path's language, whoever found it missing, and
 * that answer is kept a while apart from the renders. The last route: it
 * answers every request it is asked.
 */
export function renderRoute(
  context: PageContext,
  notFoundPages: ReadonlyMap<LanguageCode, StoredResponse>,
  /** Where not-found answers are kept (MISSING_ENTRIES at most). */
  missing: ResponseCache,
): Route {
  const { cache, isCurrent, render, site, base } = context;
  return async (req, res, url, served) => {
    const twin = twinPath(url.pathname);
    const target = targetOf(url.pathname, twin, req.headers.accept);
    const pageHeaders = pageHeadersOf(twin, served);
    const kept = keptUrl(url, pageQueryParameters(target));
    const key = `${target}${kept.search}`;
    const hit = cache.get(key) ?? missing.get(key);
    if (hit && (await isCurrent(hit.revision)))
      return sendStored(req, res, hit.response, {
        base,
        varyAccept: twin !== null,
        extraHeaders: { ...(hit.revision ? {} : { Age: String(hit.age) }), ...(hit.response.status === 200 ? pageHeaders : {}) },
      });
    // Joined as text: a path such as `//host/x` must stay a path on this site.
    const response: StoredResponse = await cache.store(key, await render(req, new URL(`${site}${key}`)));
    const notFound = response.status === 404 ? notFoundPages.get(languageOfPath(url.pathname)) : undefined;
    // Kept a while: a missing address asked for again and again (a crawler, a broken link) is not rendered each time.
    if (notFound) missing.keep(key, notFound, NOT_FOUND_SECONDS);
    return sendStored(req, res, notFound ?? response, {
      base,
      varyAccept: twin !== null,
      extraHeaders: !notFound && response.status === 200 ? pageHeaders : {},
    });
  };
}
