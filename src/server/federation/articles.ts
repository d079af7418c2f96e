import { LanguageString, type Context } from '@fedify/fedify';
import { Article, Collection, Image, PUBLIC_COLLECTION } from '@fedify/vocab';
import { Temporal as Polyfill } from '@js-temporal/polyfill';
import { markdownToHtml } from 'satteri';
import type { LanguageCode } from '../../i18n/languages.ts';
import { articlePath, type ArticleItem } from '../articles/catalog.ts';
import { articleCard, visibleToday, type FederationData } from './data.ts';

/** An article translation's id: its page's URL (`/articles/<slug>`, `/fr/articles/<slug>`). */
function articleId(site: string, slug: string, lang: LanguageCode): URL {
  return new URL(articlePath(slug, lang), site);
}

/**
 * The first instant of a date (YYYY-MM-DD), UTC: an article's date is a day.
 * Node has no Temporal yet; Fedify's vocabulary runs on this polyfill and is
 * typed with the standard's.
 */
function dayStart(date: string): Temporal.Instant {
  return Polyfill.Instant.from(`${date}T00:00:00Z`) as unknown as Temporal.Instant;
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
  return articleOf(ctx, article, markdownToHtml(article.content).html);
}

/** The `Article` of a translation, its HTML given. */
export function articleOf(ctx: Context<FederationData>, item: ArticleItem, html: string): Article {
  const id = articleId(ctx.data.site, item.slug, item.lang);
  return new Article({
    id,
    url: id,
    name: item.title,
    summary: item.excerpt,
    contents: [html, new LanguageString(html, item.lang)],
    published: dayStart(item.date),
    // The catalog keeps a translation's date only: it is both.
    updated: dayStart(item.date),
    attribution: ctx.getActorUri(item.lang),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(item.lang),
    image: new Image({ url: articleCard(ctx.data, item.slug, item.title, item.lang), mediaType: 'image/png' }),
    // The conversation about it: empty until replies come back from the fediverse.
    replies: new Collection({ id: new URL(`${id.href}#replies`), totalItems: 0, items: [] }),
  });
}
