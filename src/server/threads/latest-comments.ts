import { publicComment, type PublicComment } from '../store/service.ts';
import type { ThreadStore } from '../store/roles.ts';
import type { RevisionTopic } from '../store/types.ts';

/** Comments a feed carries at most: enough to follow a discussion, never the whole of a long one. */
export const FEED_COMMENTS = 50;

/** The newest comments of some threads, and the revision of the topic they were read under. */
export interface LatestComments {
  revision: string;
  /** Newest first. */
  comments: PublicComment[];
}

/**
 * The newest FEED_COMMENTS comments of the threads of `slugs` (the
 * published articles a feed covers), as a reader sees them on the article
 * pages: a comment the owner deleted, which the page shows without author or
 * text, is left out. The revision of `topic` (`thread:<slug>` for one
 * article, `threads` for the site) is read first, so a write landing
 * meanwhile makes it older than the store's, never newer.
 */
export async function latestComments(
  store: Pick<ThreadStore, 'revision' | 'latestComments'>,
  topic: RevisionTopic,
  slugs: readonly string[],
): Promise<LatestComments> {
  const revision = await store.revision(topic);
  return { revision, comments: (await store.latestComments(slugs, FEED_COMMENTS)).map(publicComment) };
}
