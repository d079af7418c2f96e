import type { Context } from '@fedify/fedify';
import { Create } from '@fedify/vocab';
import { markdownToHtml } from 'satteri';
import type { LanguageCode } from '../../i18n/languages.ts';
import { articlePath, type ArticleItem } from '../articles/catalog.ts';
import type { DeliveredActivity } from '../store/types.ts';
import { articleOf } from './articles.ts';
import { visibleToday, type FederationData } from './data.ts';

/**
 * The id of the `Create` of an article translation: its page's URL with
 * `#create`. The outbox lists it and followers receive it by this id, which
 * a remote server dedupes by.
 */
export function createId(site: string, slug: string, lang: LanguageCode): string {
  return `${new URL(articlePath(slug, lang), site).href}#create`;
}

/** The `Create` of a translation by its language's actor, its HTML given. */
export function createOf(ctx: Context<FederationData>, item: ArticleItem, html: string): Create {
  const object = articleOf(ctx, item, html);
  return new Create({
    id: new URL(createId(ctx.data.site, item.slug, item.lang)),
    actor: ctx.getActorUri(item.lang),
    object,
    published: object.published,
    to: object.toId,
    cc: object.ccId,
  });
}

/**
 * A delivery's activity as it is sent: the `Create` of a translation
 * visible today, as compact JSON-LD; null when it is no longer visible
 * (withdrawn by a deploy), which is sent to no one.
 */
export async function activityBody(ctx: Context<FederationData>, { activity, slug, lang }: DeliveredActivity): Promise<string | null> {
  if (activity !== 'create') return null;
  const article = await visibleToday(ctx.data).read(slug, lang);
  if (!article || article.lang !== lang) return null;
  const create = createOf(ctx, article, markdownToHtml(article.content).html);
  return JSON.stringify(await create.toJsonLd({ format: 'compact', contextLoader: ctx.contextLoader }));
}
