import { MAX_COMMENT_DEPTH, type PublicComment } from '../store/service.ts';
import type { StoredComment, StoreEngine } from '../store/types.ts';

/** Top-level comments on one page of a thread: enough to read, few enough that a page of a long thread renders fast. */
const THREAD_PAGE_SIZE = 30;

/** A comment with its replies, as the thread shows it: the author's hash never leaves the store. */
export interface ThreadComment extends PublicComment {
  replies: ThreadComment[];
  /** Whether a reply to it would still be within the deepest level (never to a deleted comment). */
  canReply: boolean;
  /** Deleted by the owner: shown as a placeholder, with no author, body, votes or reply, its replies still under it. */
  deleted: boolean;
}

export interface ThreadPage {
  /** What the page shows is this revision of the thread (StoreEngine.revision). */
  revision: string;
  articleScore: number;
  /** Top-level comments in the whole thread. */
  topLevelCount: number;
  comments: ThreadComment[];
  /** The next page's number, or null on the last one. */
  nextPage: number | null;
}

function shown({ authorHash: _authorHash, deletedAt, ...kept }: StoredComment): ThreadComment {
  const deleted = deletedAt !== null;
  return {
    ...kept,
    ...(deleted ? { author: '', body: '', score: 0 } : {}),
    replies: [],
    canReply: !deleted && kept.depth < MAX_COMMENT_DEPTH,
    deleted,
  };
}

/**
 * One page of an article's thread: its top-level comments newest first, as
 * a reader looks for what is new, each with its replies oldest first under
 * it, as a conversation reads. The revision is read first, so a write landing
 * meanwhile makes the page's revision older than the store's, never newer.
 */
export async function threadPage(
  store: Pick<StoreEngine, 'revision' | 'listComments' | 'articleScore'>,
  articleSlug: string,
  page: number,
): Promise<ThreadPage> {
  const revision = await store.revision(`thread:${articleSlug}`);
  const [stored, articleScore] = await Promise.all([store.listComments(articleSlug), store.articleScore(articleSlug)]);
  const byId = new Map(stored.map((comment) => [comment.id, shown(comment)]));
  const topLevel: ThreadComment[] = [];
  for (const comment of byId.values()) {
    const parent = comment.parentId === null ? undefined : byId.get(comment.parentId);
    if (parent) parent.replies.push(comment);
    else topLevel.push(comment);
  }
  topLevel.reverse();
  const start = (page - 1) * THREAD_PAGE_SIZE;
  return {
    revision,
    articleScore,
    topLevelCount: topLevel.length,
    comments: topLevel.slice(start, start + THREAD_PAGE_SIZE),
    nextPage: start + THREAD_PAGE_SIZE < topLevel.length ? page + 1 : null,
  };
}
