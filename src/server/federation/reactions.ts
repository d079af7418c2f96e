/**
 * Likes and boosts from the fediverse (docs/architecture.md, "Federation"):
 * a signed `Like` or `Announce` of an article translation's page (any
 * language) counts once per remote actor and kind for the article, shown
 * beside its votes; its `Undo` by the same actor takes it back. Anything
 * else liked or boosted (a comment, a page that is not an article) is
 * ignored.
 */
import type { InboxContext } from '@fedify/fedify';
import { Like, type Announce } from '@fedify/vocab';
import type { NewReaction } from '../store/types.ts';
import { visibleArticleAt, type FederationData } from './data.ts';

/** The reaction an activity is, when it is a like or boost of an article by its actor. */
function reactionOf(ctx: InboxContext<FederationData>, activity: Like | Announce): NewReaction | null {
  const { actorId, objectId } = activity;
  const articleSlug = objectId === null ? null : visibleArticleAt(ctx.data, objectId);
  if (actorId === null || articleSlug === null) return null;
  return { articleSlug, kind: activity instanceof Like ? 'like' : 'boost', actorId: actorId.href };
}

export async function takeReaction(ctx: InboxContext<FederationData>, activity: Like | Announce): Promise<void> {
  const reaction = reactionOf(ctx, activity);
  if (reaction) await ctx.data.writes.store.setReaction(reaction, true);
}

/** The `Undo` of a like or boost: taken back when the one who undoes it is the one who did it. */
export async function undoReaction(ctx: InboxContext<FederationData>, undoneBy: URL, activity: Like | Announce): Promise<void> {
  const reaction = reactionOf(ctx, activity);
  if (reaction && reaction.actorId === undoneBy.href) await ctx.data.writes.store.setReaction(reaction, false);
}
