import { z } from 'zod';
import { SLUG_PATTERN } from '../articles/source.ts';
import type { ApiResponse } from '../api-frame/api-response.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { json, refusalResponse } from '../api-frame/json-responses.ts';
import { refusal } from '../api-frame/refusals.ts';
import { identify } from '../identity/caller.ts';
import type { Votes } from '../store/roles.ts';
import { readerServices, readerServicesAtHand, type ReaderCall, type ReaderServices } from '../writes/write-handlers.ts';

export const viewerVotesQuery = z.object({ slug: z.string().regex(SLUG_PATTERN) });

/**
 * GET /api/votes: the caller's own votes on a published article and its
 * comments, by the hash of the request's address, worked out as the writes
 * work it out (`identify`); nothing else is read and no hash is returned.
 * Never cached anywhere. Answered at once when the services and the thread
 * are in memory, as they are for every read but the first ones.
 */
export function viewerVotesHandler(call: ReaderCall): ApiResponse | Promise<ApiResponse> {
  const services = readerServicesAtHand(call.services);
  return services ? votesAnswer(call, services) : readerServices(call.services).then((resolved) => votesAnswer(call, resolved));
}

function votesAnswer(call: ReaderCall, { runtime, published }: ReaderServices): ApiResponse | Promise<ApiResponse> {
  const { hash } = identify(call, runtime);
  const query = viewerVotesQuery.safeParse({ slug: call.request.url.searchParams.get('slug') });
  if (!query.success || !published.has(query.data.slug))
    return refusalResponse(
      refusal('not_found', 'slug: no published article has that slug', { 'Cache-Control': CACHE_CONTROL.viewerVotes }),
    );
  const votes = runtime.store.votesOf(query.data.slug, hash);
  return votes instanceof Promise ? votes.then(votesResponse) : votesResponse(votes);
}

function votesResponse(votes: Votes): ApiResponse {
  return json(votes, { cacheControl: CACHE_CONTROL.viewerVotes });
}
