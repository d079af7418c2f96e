import type { LanguageCode } from '../../i18n/languages.ts';
import { twinPath } from '../http/negotiation.ts';
import { languageOfPath } from './not-found.ts';
import { pageKey } from './render-route.ts';
import type { ResponseCache } from './response-cache.ts';
import type { Route } from './route.ts';
import type { BaseHeaders } from './send.ts';
import { sendStored, type StoredResponse } from './stored-response.ts';

/**
 * How long a "page not found" response is kept for its address. Articles that
 * appear on their date are built files, looked up before this cache.
 */
const NOT_FOUND_SECONDS = 60;

/** Missing addresses whose not-found page is kept, apart from the renders, so that a crawler's misses push no render out. */
export const MISSING_ENTRIES = 1000;

/**
 * The last route: a page request no other route had a page for is answered
 * with the site's 404 page in its path's language (a reader lost under
 * `/fr/` is told so in French), and that answer is kept a while in
 * `missing` for the address, where the render route finds it: a missing
 * address asked for again and again (a crawler, a broken link) is not
 * rendered each time. Passes on a path whose language has no such page.
 */
export function notFoundRoute(pages: ReadonlyMap<LanguageCode, StoredResponse>, missing: ResponseCache, base: BaseHeaders): Route {
  return (req, res, url) => {
    const page = pages.get(languageOfPath(url.pathname));
    if (!page) return null;
    missing.keep(pageKey(req, url), page, NOT_FOUND_SECONDS);
    return Promise.resolve(sendStored(req, res, page, { base, varyAccept: twinPath(url.pathname) !== null }));
  };
}
