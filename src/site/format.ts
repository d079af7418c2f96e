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

/** "Published 14 March 2026 · 3 min read", in the page's language. */
export function articleMeta(date: string, minutes: number, lang: LanguageCode): string {
  const t = uiStrings(lang);
  return `${t('article.published', { date: formatDate(date, lang) })} · ${t('article.readingTime', { minutes })}`;
}
