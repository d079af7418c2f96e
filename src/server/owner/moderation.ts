/**
 * The owner's three actions on one comment, once for every way of asking
 * (a signed link from a notification, the data tool, the desk): approve a
 * pending comment, delete a comment (a pending one is removed outright, a
 * published one leaves its placeholder), ban its writer.
 */
import type { ModerationStore } from '../store/roles.ts';
import type { StoredComment } from '../store/types.ts';

export const MODERATION_ACTIONS = ['approve', 'delete', 'ban'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/**
 * Where an action on a comment stands: it can be done (`ready`), was done
 * already (`done`: approved, deleted, its writer banned), or cannot be, the
 * comment being gone (`missing`: no such id, or removed while pending).
 */
export type ModerationState = { state: 'ready' | 'done'; comment: StoredComment } | { state: 'missing' };

/** Where `action` stands on the comment `id`, changing nothing. */
export async function moderationState(store: ModerationStore, action: ModerationAction, id: string): Promise<ModerationState> {
  const comment = await store.findComment(id);
  if (!comment) return { state: 'missing' };
  const done =
    action === 'approve'
      ? comment.status === 'published'
      : action === 'delete'
        ? comment.deletedAt !== null
        : await store.isBanned(comment.authorHash);
  return { state: done ? 'done' : 'ready', comment };
}

/**
 * Does `action` on the comment `id`, and says where it stood before: `ready`
 * when this call did it, `done` when it had been done already (by anyone,
 * also at the same moment), `missing` when there is no such comment.
 */
export async function moderate(store: ModerationStore, action: ModerationAction, id: string): Promise<ModerationState> {
  const before = await moderationState(store, action, id);
  if (before.state !== 'ready') return before;
  const { comment } = before;
  const acted = await act(store, action, comment);
  // Another request acted first: the state now says whether it was the same action.
  return acted ? before : moderationState(store, action, id);
}

async function act(store: ModerationStore, action: ModerationAction, comment: StoredComment): Promise<boolean> {
  switch (action) {
    case 'approve':
      return (await store.approveComment(comment.id)) !== null;
    case 'delete':
      return comment.status === 'pending'
        ? (await store.removePendingComment(comment.id)) !== null
        : (await store.deleteComment(comment.id)) !== null;
    case 'ban':
      return store.setBan(comment.authorHash, true);
  }
}
