import { LanguageString, type Context } from '@fedify/fedify';
import { Article, Collection, Image, PUBLIC_COLLECTION, Tombstone } from '@fedify/vocab';
import { Temporal as Polyfill } from '@js-temporal/polyfill';
import { markdownToHtml } from 'satteri';
import type { LanguageCode } from '../../i18n/languages.ts';
import { articlePath, type ArticleItem } from '../articles/catalog.ts';
import { threadPage } from '../threads/thread-page.ts';
import { articleCard, visibleToday, type FederationData } from './data.ts';

/** An article translation's id: its page's URL (`/articles/<slug>`, `/fr/articles/<slug>`). */
export function articleId(site: string, slug: string, lang: LanguageCode): URL {
  return new URL(articlePath(slug, lang), site);
}

/**
 * An instant (ISO 8601, with its offset). Node has no Temporal yet; Fedify's
 * vocabulary runs on this polyfill and is typed with the standard's.
 */
function instant(iso: string): Temporal.Instant {
  return Polyfill.Instant.from(iso) as unknown as Temporal.Instant;
}

/** The first instant of a date (YYYY-MM-DD), UTC: an article's date is a day. */
function dayStart(date: string): Temporal.Instant {
  return instant(`${date}T00:00:00Z`);
}

/** When a translation was last changed: when its version was recorded (AppearanceStore), its date until it changed. */
export async function lastUpdated(data: FederationData, slug: string, lang: LanguageCode): Promise<string | null> {
  return (await data.store.findAppearance({ slug, lang }))?.updatedAt ?? null;
}

/**
 * The `Article` of a translation written in `lang` and visible today; null
 * for an unknown, scheduled or untranslated one (a language's actor speaks
 * only its own). Its content is the Markdown body rendered by Astro's own
 * engine; Mastodon shows its title and link.
 */
export async function articleObject(ctx: Context<FederationData>, slug: string, lang: LanguageCode): Promise<Article | null> {
  const article = await visibleToday(ctx.data).read(slug, lang);
  if (!article || article.lang !== lang) return null;
  return articleOf(ctx, article, markdownToHtml(article.content).html, {
    replies: await repliesTo(ctx.data, slug, lang),
    updated: await lastUpdated(ctx.data, slug, lang),
  });
}

/**
 * The `Tombstone` of a translation withdrawn (its file removed, made a
 * draft or dated ahead, and its `Delete` recorded: AppearanceStore), which
 * its id answers with 410 Gone; null for any other.
 */
export async function tombstoneOf(data: FederationData, slug: string, lang: LanguageCode): Promise<Tombstone | null> {
  if (visibleToday(data).get(slug, lang)?.lang === lang) return null;
  const recorded = await data.store.findAppearance({ slug, lang });
  if (recorded?.change !== 'delete') return null;
  return new Tombstone({ id: articleId(data.site, slug, lang), deleted: instant(recorded.updatedAt ?? recorded.appearedAt) });
}

/**
 * The conversation under an article, as its `replies` collection: how many
 * comments answer it, and the newest page of them (threads/thread-page.ts,
 * one read of the thread per change), each by its place on the page, or by
 * its remote post for a reply that came from the fediverse. Every
 * translation shares the article's one thread.
 */
async function repliesTo(data: FederationData, slug: string, lang: LanguageCode): Promise<{ count: number; items: URL[] }> {
  const { topLevelCount, comments } = await threadPage(data.writes.store, slug, 1);
  const page = articleId(data.site, slug, lang).href;
  const items = comments
    .filter((comment) => !comment.deleted)
    .map((comment) => new URL(comment.remote?.object ?? `${page}#comment-${comment.id}`));
  return { count: topLevelCount, items };
}

/** What an `Article` says besides its translation: the replies it has (none for one that just appeared), and when it last changed. */
interface ArticleState {
  replies?: { count: number; items: URL[] };
  /** ISO 8601; null (its date) until it changed. */
  updated?: string | null;
}

/** The `Article` of a translation, its HTML given. */
export function articleOf(
  ctx: Context<FederationData>,
  item: ArticleItem,
  html: string,
  { replies = { count: 0, items: [] }, updated = null }: ArticleState = {},
): Article {
  const id = articleId(ctx.data.site, item.slug, item.lang);
  return new Article({
    id,
    url: id,
    name: item.title,
    summary: item.excerpt,
    contents: [html, new LanguageString(html, item.lang)],
    published: dayStart(item.date),
    // Later than `published` once a redeploy changed it: a server applies an Update no older than what it has.
    updated: updated === null ? dayStart(item.date) : instant(updated),
    attribution: ctx.getActorUri(item.lang),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(item.lang),
    image: new Image({ url: articleCard(ctx.data, item.slug, item.title, item.lang), mediaType: 'image/png' }),
    replies: new Collection({ id: new URL(`${id.href}#replies`), totalItems: replies.count, items: replies.items }),
  });
}
