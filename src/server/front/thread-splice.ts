import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { THREAD_SLOT } from '../http/site-paths.ts';
import { REVISION_HEADERS } from './response-cache.ts';

/**
 * A built article page with its thread's first page in it: the fragment's
 * HTML in place of THREAD_SLOT, under the fragment's revision, so that the
 * front server keeps it exactly as long as it keeps the fragment, and its
 * ETag (taken from the whole body) changes with the thread. Null when the
 * page has no slot or the fragment is not a thread (a 404, an error): the
 * built page is then served as it is.
 */
export async function pageWithThread(page: Buffer, contentType: string, fragment: Response): Promise<Response | null> {
  const at = page.indexOf(THREAD_SLOT);
  if (at === -1 || fragment.status !== 200) return null;
  const headers = new Headers({ 'Content-Type': contentType, 'Cache-Control': CACHE_CONTROL.byRevision });
  for (const name of REVISION_HEADERS) {
    const value = fragment.headers.get(name);
    if (value === null) return null;
    headers.set(name, value);
  }
  const body = Buffer.concat([page.subarray(0, at), Buffer.from(await fragment.arrayBuffer()), page.subarray(at + THREAD_SLOT.length)]);
  return new Response(body, { status: 200, headers });
}
