import type { ApiAnswer } from '../http/api-answer.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { json, jsonError } from '../http/json.ts';
import type { StoreEngine } from '../store/types.ts';
import type { IsPublished } from './reader-writes.ts';
import { viewerVotesQuery } from './schemas.ts';

/**
 * GET /api/votes: the caller's own votes on an article and its comments, by
 * the hash of the request's address; nothing else is read and no hash is
 * returned. Never cached anywhere.
 */
export async function answerViewerVotes(
  slug: string | null,
  isPublished: IsPublished,
  readerHash: string,
  store: StoreEngine,
): Promise<ApiAnswer> {
  const query = viewerVotesQuery.safeParse({ slug });
  if (!query.success || !isPublished(query.data.slug))
    return jsonError(404, 'slug: no published article has that slug', { 'Cache-Control': CACHE_CONTROL.viewerVotes });
  return json(await store.votesOf(query.data.slug, readerHash), { cacheControl: CACHE_CONTROL.viewerVotes });
}
