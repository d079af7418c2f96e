/**
 * The store's rules, once for every engine: threading (a reply's parent is
 * a published comment on the same article, depth at most 4), moderation (which
 * new comment waits for approval) and the vote toggle. Engines keep data;
 * comments and votes are written through these, never by an engine call of
 * their own.
 */
import { refusal, type Refusal } from '../api-frame/refusals.ts';
import type { Settings } from '../settings/environment.ts';
import type { SubmissionStore, ThreadStore } from './roles.ts';
import type { CastVote, CommentStatus, NewComment, StoredComment, VoteTarget, VoteValue } from './types.ts';

/** Replies nest at most this deep; a top-level comment has depth 1. */
export const MAX_COMMENT_DEPTH = 4;

/**
 * MODERATION: `off`, every comment is published at once; `first`, the
 * comment of a reader none of whose comments was ever published waits for
 * approval; `all`, every comment waits.
 */
export type ModerationMode = Settings['MODERATION'];

/**
 * A comment as the API answers it: everything but the author's hash and the
 * owner's deletion; `remote` only for a reply from the fediverse,
 * `importedFrom` only for a comment imported from another comment system, and
 * `authorUrl` where its author has a page of their own (a fediverse profile,
 * the website an imported author gave).
 */
export type PublicComment = Omit<StoredComment, 'authorHash' | 'deletedAt' | 'remote' | 'imported'> & {
  remote?: NonNullable<StoredComment['remote']> | undefined;
  importedFrom?: NonNullable<StoredComment['imported']>['source'] | undefined;
  authorUrl?: string | undefined;
};

export function publicComment({
  authorHash: _authorHash,
  deletedAt: _deletedAt,
  remote,
  imported,
  ...comment
}: StoredComment): PublicComment {
  if (remote) return { ...comment, remote, authorUrl: remote.profile };
  if (imported) return { ...comment, importedFrom: imported.source, ...(imported.website === null ? {} : { authorUrl: imported.website }) };
  return comment;
}

/** The vote toggle: the same direction again removes the vote, the other one switches it. */
export function nextVote(current: VoteValue, requested: CastVote): VoteValue {
  return current === requested ? 0 : requested;
}

/** Where a new comment goes in its thread: its depth, or the refusal of its parent. */
export type ThreadPlacement = { ok: true; depth: number } | { ok: false; refusal: Refusal };

function unplaced(message: string): ThreadPlacement {
  return { ok: false, refusal: refusal('invalid_input', message) };
}

/** Where a new comment goes: top level, or under a parent on the same article and not too deep. */
export async function placeInThread(
  engine: ThreadStore,
  articleSlug: string,
  parentId: string | null | undefined,
): Promise<ThreadPlacement> {
  if (!parentId) return { ok: true, depth: 1 };
  const parent = await engine.getComment(articleSlug, parentId);
  // A pending comment is as unknown to the API as a missing one: only its writer knows its id.
  if (parent?.status !== 'published') return unplaced('parentId: no such comment on this article');
  if (parent.deletedAt !== null) return unplaced('parentId: that comment was deleted');
  if (parent.depth >= MAX_COMMENT_DEPTH) return unplaced(`parentId: replies nest at most ${MAX_COMMENT_DEPTH} levels`);
  return { ok: true, depth: parent.depth + 1 };
}

/** Whether a new comment of this reader is published at once or waits for approval, under `mode`. */
export async function statusOfNewComment(engine: ThreadStore, mode: ModerationMode, authorHash: string): Promise<CommentStatus> {
  if (mode === 'off') return 'published';
  if (mode === 'all') return 'pending';
  return (await engine.everPublished(authorHash)) ? 'published' : 'pending';
}

/**
 * Whether a new topic request is listed at once or waits for approval, under
 * `mode`, as a comment would: under `first` a reader is known once a comment
 * or a topic request of theirs was published.
 */
export async function statusOfNewTopicRequest(
  engine: ThreadStore & SubmissionStore,
  mode: ModerationMode,
  authorHash: string,
): Promise<'pending' | 'waiting'> {
  if ((await statusOfNewComment(engine, mode, authorHash)) === 'published') return 'pending';
  if (mode === 'all') return 'waiting';
  // Few enough to read whole: /answers lists every one of them.
  return (await engine.listTopicRequests()).some((request) => request.authorHash === authorHash) ? 'pending' : 'waiting';
}

export async function addComment(engine: ThreadStore, comment: NewComment): Promise<PublicComment> {
  return publicComment(await engine.insertComment(comment));
}

/** Whether a vote's target exists: the article itself, or a published comment on it that was not deleted. */
export async function voteTargetExists(engine: ThreadStore, { articleSlug, commentId }: VoteTarget): Promise<boolean> {
  if (commentId === null) return true;
  const comment = await engine.getComment(articleSlug, commentId);
  return comment !== null && comment.deletedAt === null && comment.status === 'published';
}

/** The toggle applied for one voter: the target's new score and the voter's vote now. */
export async function toggleVote(
  engine: ThreadStore,
  target: VoteTarget,
  voter: string,
  requested: CastVote,
): Promise<{ score: number; vote: VoteValue }> {
  const result = await engine.applyVote(target, voter, (current) => nextVote(current, requested));
  if (!result) throw new Error(`comment ${target.commentId ?? ''} vanished while voting`);
  return result;
}
