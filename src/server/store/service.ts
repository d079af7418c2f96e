import type { NewComment, StoredComment, StoreEngine, VoteValue } from './types.ts';

/** Replies nest at most this deep; a top-level comment has depth 1. */
export const MAX_COMMENT_DEPTH = 4;

/** A comment as the API shows it: everything but the author's hash. */
export type PublicComment = Omit<StoredComment, 'authorHash'>;

function publicComment({ authorHash: _authorHash, ...comment }: StoredComment): PublicComment {
  return comment;
}

/** The vote toggle (spec, States): the same direction again removes the vote, the other one switches it. */
export function nextVote(current: VoteValue, requested: -1 | 1): VoteValue {
  return current === requested ? 0 : requested;
}

export type ThreadPlacement = { ok: true; depth: number } | { ok: false; message: string };

/** Where a new comment goes: top level, or under a parent on the same article and not too deep. */
export async function placeInThread(
  engine: StoreEngine,
  articleSlug: string,
  parentId: string | null | undefined,
): Promise<ThreadPlacement> {
  if (!parentId) return { ok: true, depth: 1 };
  const parent = await engine.getComment(articleSlug, parentId);
  if (!parent) return { ok: false, message: 'parentId: no such comment on this article' };
  if (parent.depth >= MAX_COMMENT_DEPTH) return { ok: false, message: `parentId: replies nest at most ${MAX_COMMENT_DEPTH} levels` };
  return { ok: true, depth: parent.depth + 1 };
}

export async function addComment(engine: StoreEngine, comment: NewComment): Promise<PublicComment> {
  return publicComment(await engine.insertComment(comment));
}
