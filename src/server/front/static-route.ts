import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { etagOf } from '../http/etag.ts';
import { prefersMarkdown, twinPath } from '../http/negotiation.ts';
import { isThreadFragment, pageLinkHeader, threadFragmentOfPage, withoutTrailingSlashes } from '../http/site-paths.ts';
import type { Served } from '../observability/requests.ts';
import type { ResponseCache, Revision } from './response-cache.ts';
import type { Route } from './route.ts';
import { SeenOnce } from './seen-once.ts';
import { sendResponse, type BaseHeaders } from './send.ts';
import type { StaticFile, StaticFiles } from './static-files.ts';
import { sendStatic, sendStored, type StoredResponse } from './stored-response.ts';
import { pageWithThread } from './thread-splice.ts';

/** What the page routes share: the built files, the kept renders and Astro. */
export interface PageContext {
  files: StaticFiles;
  /** The built file at a path, none for an article before its date. */
  staticFile: (pathname: string) => StaticFile | undefined;
  cache: ResponseCache;
  /** Whether a kept render still shows the store as it is. */
  isCurrent: (revision: Revision | undefined) => Promise<boolean>;
  /** A page rendered by Astro at `url`, for every reader alike. */
  render: (req: IncomingMessage, url: URL) => Promise<Response>;
  site: string;
  base: BaseHeaders;
  /** The Webmention endpoint pages advertise, while FEDERATION is on. */
  webmention?: string | undefined;
}

/** The path a page request is answered from: its Markdown twin when it has one and `Accept` prefers it. */
export function targetOf(pathname: string, twin: string | null, accept: string | undefined): string {
  return twin !== null && prefersMarkdown(accept) ? twin : pathname;
}

/**
 * What an answer adds to a page: it names its Markdown twin and the documents for agents, and a page or a twin
 * the Webmention endpoint when there is one (contract §8); a fragment adds nothing.
 */
export function pageHeadersOf(twin: string | null, served: Served, webmention: string | undefined): Record<string, string> {
  const links = twin !== null && served.kind === 'page' ? [pageLinkHeader(twin)] : [];
  if (webmention !== undefined && (served.kind === 'page' || served.kind === 'twin')) links.push(`<${webmention}>; rel="webmention"`);
  return links.length > 0 ? { Link: links.join(', ') } : {};
}

const METHOD_NOT_ALLOWED = { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' } };

/**
 * Sends the built file at `pathname`, if there is one, and resolves with
 * the body's bytes sent; null when there is none, or it was removed from
 * disk since the build. A file changed on disk since the manifest was read
 * sends the server to the manifest again (a new build); one changed by
 * hand, which no manifest describes, is sent as it is now, uncompressed,
 * under the ETag of what it holds.
 */
async function sendFile(
  { files, staticFile, base }: PageContext,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  varyAccept: (file: StaticFile) => boolean,
  pageHeaders: Record<string, string>,
): Promise<number | null> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const file = staticFile(pathname);
    if (!file) return null;
    const extraHeaders = file.isDocument ? pageHeaders : {};
    const sent = await sendStatic(req, res, files, file, { base, varyAccept: varyAccept(file), extraHeaders });
    if (sent === 'gone') return null;
    if (sent !== 'changed') return sent;
    await files.reload();
  }
  const file = staticFile(pathname);
  const identity = file && (await readFile(file.path).catch(() => undefined));
  if (!file || !identity) return null;
  const response = {
    status: 200,
    headers: { 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl },
    etag: etagOf(identity),
    bodies: { identity },
  };
  return sendStored(req, res, response, { base, varyAccept: varyAccept(file), extraHeaders: file.isDocument ? pageHeaders : {} });
}

/**
 * Built files and the article pages with their thread (docs/architecture.md,
 * "The front server"), for GET and HEAD; any other method is refused, since
 * pages are read only and writes go to the API. Passes on a path that has
 * no built file, to the pages rendered on demand.
 */
export function staticRoute(context: PageContext): Route {
  const { files, staticFile, cache, isCurrent, render, site, base } = context;
  // Article pages with their threads are kept from their second read, as built files are (hot-bodies.ts).
  const pagesSeenOnce = new SeenOnce();
  /**
   * Pages being put together with their thread, by key: readers who ask at
   * once, before the first is kept, share one render instead of each holding
   * a thread's page in memory at the same time.
   */
  const merging = new Map<string, Promise<StoredResponse | null>>();

  /**
   * A built article page with its thread's first page in it (thread-splice.ts),
   * kept among the renders under the built file's ETag and sent while the
   * thread's revision is the store's and the built file is unchanged on disk:
   * rendered once per change of the thread, never per reader. It is kept from
   * its second read, so that a crawler walking the archive once pushes no
   * page read often out of the budget. Null, having sent nothing, when the
   * built page is not there, changed on disk or takes no thread: sendFile
   * then answers it as it answers any built file.
   */
  async function sendPageWithThread(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    fragment: string,
    pageHeaders: Record<string, string>,
  ): Promise<number | null> {
    const file = staticFile(pathname);
    if (!file) return null;
    // `#` never reaches the server in a path: no request's own key can be this one.
    const key = `${withoutTrailingSlashes(pathname)}#${file.etag}`;
    const hit = cache.get(key);
    if (hit) {
      const [built, current] = await Promise.all([files.unchanged(file), isCurrent(hit.revision)]);
      // A built page changed or removed since is left to sendFile, which tells which.
      if (!built) return null;
      if (current) return sendStored(req, res, hit.response, { base, varyAccept: true, extraHeaders: pageHeaders });
    }
    let merged = merging.get(key);
    if (!merged) {
      merged = mergeWithThread(req, file, fragment, key, hit !== undefined).finally(() => merging.delete(key));
      merging.set(key, merged);
    }
    const response = await merged;
    return response && sendStored(req, res, response, { base, varyAccept: true, extraHeaders: pageHeaders });
  }

  /** The built page `file` with its thread put in, stored (and kept, once read often: sendPageWithThread). */
  async function mergeWithThread(
    req: IncomingMessage,
    file: StaticFile,
    fragment: string,
    key: string,
    keptBefore: boolean,
  ): Promise<StoredResponse | null> {
    const read = await files.read(file, null);
    if ('stream' in read) read.stream.destroy();
    if (!('body' in read)) return null;
    const page = await pageWithThread(read.body, file.contentType, await render(req, new URL(`${site}${fragment}`)));
    // A page kept before, whose thread changed since, is read often enough to keep again.
    return page && cache.store(key, page, keptBefore || pagesSeenOnce.again(key));
  }

  return async (req, res, url, served) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendResponse(req, res, new Response('Method not allowed\n', METHOD_NOT_ALLOWED), base);
    const twin = twinPath(url.pathname);
    const wantsTwin = twin !== null && prefersMarkdown(req.headers.accept);
    const target = wantsTwin ? twin : url.pathname;
    // A document in Markdown is a twin, whether asked for by its path or by Accept.
    served.kind = target.endsWith('.md') ? 'twin' : isThreadFragment(target) ? 'fragment' : 'page';
    const pageHeaders = pageHeadersOf(twin, served, context.webmention);
    const fragment = wantsTwin ? null : threadFragmentOfPage(target);
    const sentWithThread = fragment === null ? null : await sendPageWithThread(req, res, target, fragment, pageHeaders);
    if (sentWithThread !== null) return sentWithThread;
    return sendFile(
      context,
      req,
      res,
      target,
      (file) => {
        if (!file.isDocument) served.kind = 'asset';
        return twin !== null && file.isDocument;
      },
      pageHeaders,
    );
  };
}
