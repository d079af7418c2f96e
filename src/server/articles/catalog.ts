import { DEFAULT_LANGUAGE, LANGUAGE_CODES, languagePrefix, type LanguageCode } from '../../i18n/languages.ts';
import { readingTime } from './reading-time.ts';
import type { ArticleSource } from './source.ts';
import { englishStamp, translationStatus } from './translation-stamp.ts';

/** An article as the API lists it, in one language. */
export interface ArticleItem {
  slug: string;
  title: string;
  date: string;
  excerpt: string;
  readingTime: number;
  lang: LanguageCode;
  url: string;
  /** A translation whose English original changed since it was stamped; false in English. */
  outdated: boolean;
}

/** An article with its Markdown body, as the API answers a single read. */
export interface Article extends ArticleItem {
  content: string;
}

/** What is published on one day (UTC): the answer to every read until the date changes. */
export interface PublishedView {
  /** Every published article in `lang` (English where untranslated), newest first. */
  list(lang: LanguageCode): readonly Article[];
  /** One published article in `lang` (English where untranslated), or null. */
  get(slug: string, lang: LanguageCode): Article | null;
  /** Whether an article is published: what the writes that target one check. */
  has(slug: string): boolean;
}

export interface Catalog {
  /** The published view on `today` (YYYY-MM-DD), computed once per day. */
  on(today: string): PublishedView;
  /** Whether an article's page in `lang`, published or scheduled, is an outdated translation. */
  isOutdated(slug: string, lang: LanguageCode): boolean;
  /** The languages an article is written in, English first. */
  languagesOf(slug: string): readonly LanguageCode[];
  /** Every article that is not a draft, newest first, published or scheduled. */
  readonly scheduled: readonly { slug: string; date: string }[];
}

const DAY_MS = 86_400_000;

/** The last day worked out, and the milliseconds it spans: `[from, from + DAY_MS)`. */
let lastDay = { date: '', from: 0 };

/**
 * Today's date in UTC, the day that decides what is published; `now` in
 * milliseconds. Asked on most requests: the date is formatted again only when
 * `now` falls outside the last day's span (a UTC day is exactly DAY_MS here,
 * as JavaScript's clock has no leap seconds): formatting a date was the
 * largest single cost of the API's own work in a small read.
 */
export function todayUtc(now: number = Date.now()): string {
  if (now < lastDay.from || now >= lastDay.from + DAY_MS) {
    const from = Math.floor(now / DAY_MS) * DAY_MS;
    lastDay = { date: new Date(from).toISOString().slice(0, 10), from };
  }
  return lastDay.date;
}

export function articlePath(slug: string, lang: LanguageCode): string {
  return `${languagePrefix(lang)}/articles/${slug}`;
}

/**
 * Groups the writer's files into articles. Drafts are left out entirely; an
 * article needs its English original (the build fails naming the slug
 * otherwise), and its English date decides when every translation appears.
 * Each English body is hashed once here, so that a build of many articles
 * and languages learns every translation's status without reading a file again.
 */
export function createCatalog(sources: readonly ArticleSource[], site: string): Catalog {
  const bySlug = new Map<string, Map<LanguageCode, ArticleSource>>();
  for (const source of sources) {
    if (source.draft) continue;
    const translations = bySlug.get(source.slug) ?? new Map<LanguageCode, ArticleSource>();
    translations.set(source.lang, source);
    bySlug.set(source.slug, translations);
  }
  for (const [slug, translations] of bySlug) {
    if (!translations.has(DEFAULT_LANGUAGE)) {
      throw new Error(`content/articles/${slug}: every article needs its English original, en.md or en.mdx`);
    }
  }

  const articles = new Map<string, Map<LanguageCode, Article>>();
  for (const [slug, translations] of bySlug) {
    const english = translations.get(DEFAULT_LANGUAGE) as ArticleSource;
    const stamp = englishStamp(english.body);
    const forLanguage = new Map<LanguageCode, Article>();
    for (const lang of LANGUAGE_CODES) {
      const source = translations.get(lang) ?? english;
      forLanguage.set(lang, {
        slug,
        title: source.title,
        date: english.date,
        excerpt: source.excerpt,
        readingTime: readingTime(source.body, source.lang),
        lang: source.lang,
        url: `${site}${articlePath(slug, source.lang)}`,
        outdated: source !== english && translationStatus(source.translatedFrom, stamp) === 'outdated',
        content: source.body,
      });
    }
    articles.set(slug, forLanguage);
  }

  const scheduled = [...articles.entries()]
    .map(([slug, forLanguage]) => ({ slug, date: forLanguage.get(DEFAULT_LANGUAGE)?.date ?? '' }))
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));

  let cached: { today: string; view: PublishedView } | undefined;
  function on(today: string): PublishedView {
    if (cached?.today === today) return cached.view;
    const published = scheduled.filter((article) => article.date <= today).map((article) => article.slug);
    const lists = new Map<LanguageCode, Article[]>(
      LANGUAGE_CODES.map((lang) => [lang, published.map((slug) => articles.get(slug)?.get(lang) as Article)]),
    );
    const isPublished = new Set(published);
    const view: PublishedView = {
      list: (lang) => lists.get(lang) ?? [],
      get: (slug, lang) => (isPublished.has(slug) ? (articles.get(slug)?.get(lang) ?? null) : null),
      has: (slug) => isPublished.has(slug),
    };
    cached = { today, view };
    return view;
  }

  return {
    on,
    scheduled,
    isOutdated: (slug, lang) => articles.get(slug)?.get(lang)?.outdated ?? false,
    languagesOf: (slug) => LANGUAGE_CODES.filter((lang) => bySlug.get(slug)?.has(lang)),
  };
}
