import type { Context } from '@fedify/fedify';
import { Create, Delete, PUBLIC_COLLECTION, Update } from '@fedify/vocab';
import { markdownToHtml } from 'satteri';
import type { LanguageCode } from '../../i18n/languages.ts';
import { articlePath, type ArticleItem } from '../articles/catalog.ts';
import type { Appearance, DeliveredActivity, Delivery } from '../store/types.ts';
import { articleId, articleOf, lastUpdated, tombstoneOf } from './articles.ts';
import { visibleToday, type FederationData } from './data.ts';

/**
 * The id of the `Create` of an article translation: its page's URL with
 * `#create`. The outbox lists it and followers receive it by this id, which
 * a remote server dedupes by.
 */
function createId(site: string, slug: string, lang: LanguageCode): string {
  return `${new URL(articlePath(slug, lang), site).href}#create`;
}

/**
 * The activity of an appearance's version, as its language's followers get
 * it: the `Create` of its first version by `createId`, and each later one's
 * by an id of its own (`#update-2`, `#delete-3`, `#create-4`), so that a
 * remote server, which dedupes by id, takes every version, and an inbox is
 * sent each once.
 */
export function activityOf(site: string, { slug, lang, change, version }: Appearance): DeliveredActivity {
  const activityId = version === 1 ? createId(site, slug, lang) : `${new URL(articlePath(slug, lang), site).href}#${change}-${version}`;
  return { activityId, activity: change, slug, lang };
}

/** The `Create` of a translation by its language's actor, its HTML given; `id` names the version it creates. */
export function createOf(
  ctx: Context<FederationData>,
  item: ArticleItem,
  html: string,
  id = createId(ctx.data.site, item.slug, item.lang),
): Create {
  const object = articleOf(ctx, item, html);
  return new Create({
    id: new URL(id),
    actor: ctx.getActorUri(item.lang),
    object,
    published: object.published,
    to: object.toId,
    cc: object.ccId,
  });
}

/** The `Update` of a translation whose text changed, carrying the `Article` as it is now and when it changed. */
async function updateOf(ctx: Context<FederationData>, item: ArticleItem, html: string, id: string): Promise<Update> {
  const object = articleOf(ctx, item, html, { updated: await lastUpdated(ctx.data, item.slug, item.lang) });
  return new Update({
    id: new URL(id),
    actor: ctx.getActorUri(item.lang),
    object,
    published: object.updated,
    to: object.toId,
    cc: object.ccId,
  });
}

/** The `Delete` of a withdrawn translation: its `Tombstone`, which its id answers from now on. */
async function deleteOf(ctx: Context<FederationData>, { activityId, slug, lang }: Delivery): Promise<Delete> {
  const object = (await tombstoneOf(ctx.data, slug, lang)) ?? articleId(ctx.data.site, slug, lang);
  return new Delete({
    id: new URL(activityId),
    actor: ctx.getActorUri(lang),
    object,
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(lang),
  });
}

/**
 * A delivery's activity as it is sent, as compact JSON-LD. A `Create` or an
 * `Update` carries the translation as it is now, and is sent to no one
 * (null) once it is no longer visible: its `Delete` follows. A `Delete` is
 * sent whatever came after it, which a later version's activity follows.
 */
export async function activityBody(ctx: Context<FederationData>, delivery: Delivery): Promise<string | null> {
  const { activity, activityId, slug, lang } = delivery;
  let made: Create | Update | Delete;
  if (activity === 'delete') made = await deleteOf(ctx, delivery);
  else {
    const article = await visibleToday(ctx.data).read(slug, lang);
    if (!article || article.lang !== lang) return null;
    const html = markdownToHtml(article.content).html;
    made = activity === 'create' ? createOf(ctx, article, html, activityId) : await updateOf(ctx, article, html, activityId);
  }
  return JSON.stringify(await made.toJsonLd({ format: 'compact', contextLoader: ctx.contextLoader }));
}
