import type { LanguageCode } from '../i18n/languages.ts';
import { uiStrings } from '../i18n/ui.ts';

/** One formatter a language: making one costs far more than formatting a date with it, and every page shows dates. */
const dateFormats = new Map<LanguageCode, Intl.DateTimeFormat>();

/** A calendar date written the way the language writes dates. */
export function formatDate(date: string, lang: LanguageCode): string {
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' });
    dateFormats.set(lang, format);
  }
  return format.format(new Date(`${date}T00:00:00Z`));
}

/** A moment (a comment's), written with its date and time the way the language writes them, in UTC. */
export function formatMoment(iso: string, lang: LanguageCode): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso));
}

/** The heading of an article's comments, its thread twin's and its feed's title: "Comments: The price of a beer". */
export function threadTitle(articleTitle: string, lang: LanguageCode): string {
  return `${uiStrings(lang)('thread.heading')}: ${articleTitle}`;
}

/** The title of the feed of the whole site's comments: "Longhand · Comments". */
export function siteCommentsTitle(siteName: string, lang: LanguageCode): string {
  return `${siteName} · ${uiStrings(lang)('thread.heading')}`;
}

/** "Published 14 March 2026 · 3 min read", in the page's language. */
export function articleMeta(date: string, minutes: number, lang: LanguageCode): string {
  const t = uiStrings(lang);
  return `${t('article.published', { date: formatDate(date, lang) })} · ${t('article.readingTime', { minutes })}`;
}
