import type { ReactionCounts } from '../store/types.ts';
import { threadViewsOf, type ShownMention, type ThreadComment, type ThreadSource } from './thread-views.ts';

/** Top-level comments on one page of a thread: enough to read, few enough that a page of a long thread renders fast. */
const THREAD_PAGE_SIZE = 30;

export interface ThreadPage {
  /** What the page shows is this revision of the thread (ThreadStore.revision). */
  revision: string;
  articleScore: number;
  /** The fediverse's likes and boosts of the article. */
  reactions: ReactionCounts;
  /** The Webmentions shown, oldest first. */
  mentions: readonly ShownMention[];
  /** Top-level comments in the whole thread. */
  topLevelCount: number;
  /** Empty on a page past the last (the first page of a thread with no comment is a page). */
  comments: readonly ThreadComment[];
  /** The next page's number, or null on the last one. */
  nextPage: number | null;
}

/**
 * One page of an article's thread: its top-level comments newest first, as
 * a reader looks for what is new, each with its replies oldest first under
 * it, as a conversation reads. The revision is read first, so a write landing
 * meanwhile makes the page's revision older than the store's, never newer.
 * The thread is read once per revision (thread-views.ts); a page past the
 * last, once the thread's size at this revision is known, is answered
 * without it.
 */
export async function threadPage(store: ThreadSource, articleSlug: string, page: number): Promise<ThreadPage> {
  const views = threadViewsOf(store);
  const revision = await views.revision(articleSlug);
  const start = (page - 1) * THREAD_PAGE_SIZE;
  const size = views.sizeAt(articleSlug, revision);
  if (size && page > 1 && start >= size.topLevelCount) return { ...size, comments: [], nextPage: null };
  const { articleScore, reactions, mentions, topLevel } = await views.view(articleSlug, revision);
  return {
    revision,
    articleScore,
    reactions,
    mentions,
    topLevelCount: topLevel.length,
    comments: topLevel.slice(start, start + THREAD_PAGE_SIZE),
    nextPage: start + THREAD_PAGE_SIZE < topLevel.length ? page + 1 : null,
  };
}
