import type { Federation, InboxContext } from '@fedify/fedify';
import { Accept, Announce, Create, Delete, Follow, Like, Undo, Update } from '@fedify/vocab';
import { isLanguageCode, type LanguageCode } from '../../i18n/languages.ts';
import { log } from '../observability/log.ts';
import { unlessBlocked } from './blocks.ts';
import type { FederationData } from './data.ts';
import { FEDERATION_PATHS } from './paths.ts';
import { takeReaction, undoReaction } from './reactions.ts';
import { editReply, removeReply, takeReply } from './replies.ts';

/** The language whose actor `id` names; null for any other id. */
function languageActor(ctx: InboxContext<FederationData>, id: URL | null): LanguageCode | null {
  const parsed = id === null ? null : ctx.parseUri(id);
  return parsed?.type === 'actor' && isLanguageCode(parsed.identifier) ? parsed.identifier : null;
}

/**
 * The inboxes, each actor's and the shared one. Fedify answers an unsigned
 * or wrongly signed activity 401 before any listener runs, so what is
 * stored always comes from the actor that signed it. A `Follow` of a
 * language's actor keeps its follower and answers `Accept`; `Undo` of it
 * removes the follower. A reply (`Create` of a `Note`) becomes a comment,
 * its `Update` edits it and its `Delete` removes it (replies.ts). A `Like`
 * or an `Announce` of an article counts, until its `Undo` (reactions.ts). Nothing
 * from an actor of a blocked instance is taken (blocks.ts).
 */
export function setInbox(federation: Federation<FederationData>): void {
  federation
    .setInboxListeners(FEDERATION_PATHS.inbox, FEDERATION_PATHS.sharedInbox)
    .on(
      Follow,
      unlessBlocked(async (ctx, follow) => {
        const lang = languageActor(ctx, follow.objectId);
        if (lang === null || follow.actorId === null) return;
        const follower = await follow.getActor(ctx);
        if (follower === null || follower.id?.href !== follow.actorId.href || follower.inboxId === null) return;
        await ctx.data.store.addFollower({
          lang,
          actorId: follower.id.href,
          inbox: follower.inboxId.href,
          sharedInbox: follower.endpoints?.sharedInbox?.href ?? null,
        });
        const accept = new Accept({
          id: new URL(`#accept/${crypto.randomUUID()}`, ctx.getActorUri(lang)),
          actor: ctx.getActorUri(lang),
          object: follow,
        });
        await ctx.sendActivity({ identifier: lang }, follower, accept);
      }),
    )
    .on(
      Undo,
      unlessBlocked(async (ctx, undo) => {
        const undone = await undo.getObject(ctx);
        if (undo.actorId === null) return;
        if (undone instanceof Like || undone instanceof Announce) return undoReaction(ctx, undo.actorId, undone);
        if (!(undone instanceof Follow) || undone.actorId?.href !== undo.actorId.href) return;
        const lang = languageActor(ctx, undone.objectId);
        if (lang !== null) await ctx.data.store.removeFollower(lang, undo.actorId.href);
      }),
    )
    .on(Create, unlessBlocked(takeReply))
    .on(Update, unlessBlocked(editReply))
    .on(Delete, unlessBlocked(removeReply))
    .on(Like, unlessBlocked(takeReaction))
    .on(Announce, unlessBlocked(takeReaction))
    .onError((_ctx, error) => {
      // The remote actor is named by its id, never by an address.
      log().warn('[federation] an inbox activity failed', {}, error);
    });
}
