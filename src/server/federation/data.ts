import { DEFAULT_LANGUAGE, type LanguageCode } from '../../i18n/languages.ts';
import { uiStrings } from '../../i18n/ui.ts';
import type { BuiltContent } from '../articles/built-content.ts';
import { todayUtc, type PublishedView } from '../articles/catalog.ts';
import { cardPath } from '../social/card-path.ts';
import { articlePageOf } from './paths.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { AppearanceStore, DeliveryStore, FollowerStore, MentionStore, StoreLifecycle } from '../store/roles.ts';

/** What the federation's dispatchers and listeners are handed with each request (Fedify's context data). */
export interface FederationData {
  store: FollowerStore & DeliveryStore & MentionStore & Pick<AppearanceStore, 'findAppearance'> & Pick<StoreLifecycle, 'keptSecret'>;
  /** The build's content: the catalog and the pages' texts. */
  content: BuiltContent;
  /** SITE_URL: the origin of every id. */
  site: string;
  /** What a reply from the fediverse is written with, as the site's own comments are (replies.ts). */
  writes: Pick<Runtime, 'store' | 'quotas' | 'moderation' | 'salt' | 'trustedProxies'>;
}

/** What is visible today (UTC): an article dated later is in no outbox and answers no object. */
export function visibleToday({ content }: FederationData): PublishedView {
  return content.catalog.on(todayUtc());
}

/** The slug of the article whose translation's page `url` is, on this site and visible today; null for any other address. */
export function visibleArticleAt(data: FederationData, url: URL): string | null {
  if (url.origin !== new URL(data.site).origin) return null;
  const page = articlePageOf(url.pathname);
  return page && visibleToday(data).has(page.slug) ? page.slug : null;
}

/** The publication's name, the English home page's title (content/pages/home/en.md), as the pages and cards name it. */
function publicationName({ content }: FederationData): string {
  return content.page('home', DEFAULT_LANGUAGE)?.title ?? '';
}

/** The publication as the actor of `lang` shows it: its name, its one-line description in that language, and its card. */
export function publicationIn(data: FederationData, lang: LanguageCode): { name: string; summary: string; icon: URL } {
  const siteName = publicationName(data);
  const name = data.content.page('home', lang)?.title ?? siteName;
  const icon = cardPath({ kind: 'site' }, { title: siteName, lang, siteName, host: new URL(data.site).host });
  return { name, summary: uiStrings(lang)('site.tagline'), icon: new URL(icon, data.site) };
}

/** An article translation's social card, as its page names it. */
export function articleCard(data: FederationData, slug: string, title: string, lang: LanguageCode): URL {
  const siteName = publicationName(data);
  return new URL(cardPath({ kind: 'article', slug }, { title, lang, siteName, host: new URL(data.site).host }), data.site);
}
