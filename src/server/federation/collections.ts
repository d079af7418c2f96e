import type { Federation } from '@fedify/fedify';
import type { Recipient } from '@fedify/vocab';
import { markdownToHtml } from 'satteri';
import { isLanguageCode, type LanguageCode } from '../../i18n/languages.ts';
import { createOf } from './activities.ts';
import { visibleToday, type FederationData } from './data.ts';
import { FEDERATION_PATHS } from './paths.ts';

/** Items a page of the outbox or the followers holds. */
const PAGE_SIZE = 20;

/** A cursor is the offset of a page's first item; anything else names no page. */
function offsetOf(cursor: string): number | null {
  return /^\d{1,9}$/.test(cursor) ? Number(cursor) : null;
}

/** The translations written in `lang` and visible today, newest first (English ones only for English). */
function visibleIn(data: FederationData, lang: LanguageCode) {
  return visibleToday(data)
    .list(lang)
    .filter((item) => item.lang === lang);
}

/**
 * The outbox of each language's actor: a `Create` of each of its visible
 * translations, newest first, paged; and its followers, counted in public
 * and listed oldest first.
 */
export function setCollections(federation: Federation<FederationData>): void {
  federation
    .setOutboxDispatcher(FEDERATION_PATHS.outbox, async (ctx, identifier, cursor) => {
      if (!isLanguageCode(identifier) || cursor === null) return null;
      const offset = offsetOf(cursor);
      if (offset === null) return null;
      const items = visibleIn(ctx.data, identifier);
      const page = items.slice(offset, offset + PAGE_SIZE);
      const view = visibleToday(ctx.data);
      const activities = await Promise.all(
        page.map(async (item) => {
          const article = await view.read(item.slug, identifier);
          return createOf(ctx, item, markdownToHtml(article?.content ?? '').html);
        }),
      );
      return { items: activities, nextCursor: offset + PAGE_SIZE < items.length ? String(offset + PAGE_SIZE) : null };
    })
    .setCounter((ctx, identifier) => (isLanguageCode(identifier) ? visibleIn(ctx.data, identifier).length : null))
    .setFirstCursor(() => '0');

  federation
    .setFollowersDispatcher(FEDERATION_PATHS.followers, async (ctx, identifier, cursor) => {
      if (!isLanguageCode(identifier) || cursor === null) return null;
      const offset = offsetOf(cursor);
      if (offset === null) return null;
      const followers = await ctx.data.store.listFollowers(identifier, offset, PAGE_SIZE + 1);
      const items: Recipient[] = followers.slice(0, PAGE_SIZE).map((follower) => ({
        id: new URL(follower.actorId),
        inboxId: new URL(follower.inbox),
        endpoints: follower.sharedInbox === null ? null : { sharedInbox: new URL(follower.sharedInbox) },
      }));
      return { items, nextCursor: followers.length > PAGE_SIZE ? String(offset + PAGE_SIZE) : null };
    })
    .setCounter((ctx, identifier) => (isLanguageCode(identifier) ? ctx.data.store.followerCount(identifier) : null))
    .setFirstCursor(() => '0');
}
