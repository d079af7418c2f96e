import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
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

/** An article with its Markdown body, as the API returns it for a single read. */
export interface Article extends ArticleItem {
  content: string;
}

/**
 * One article file as the catalog keeps it: everything a list shows, worked
 * out from its body once, without the body itself, which is read when an
 * answer needs it (`BodyReader`): an archive's bodies stay on disk.
 */
export interface IndexedSource {
  slug: string;
  lang: LanguageCode;
  title: string;
  /** The English original's date (YYYY-MM-DD): every translation appears with it. */
  date: string;
  excerpt: string;
  readingTime: number;
  /** A translation whose English original changed since it was stamped. */
  outdated: boolean;
  /** The digest of what a follower sees of it (contentDigest): another digest after a redeploy is an update. */
  digest: string;
}

/** The Markdown body of an indexed source, from wherever the catalog's bodies are kept. */
export type BodyReader = (source: IndexedSource) => Promise<string>;

/** What is published on one day (UTC): the response to every read until the date changes. */
export interface PublishedView {
  /** Every published article in `lang` (English where untranslated), newest first. */
  list(lang: LanguageCode): readonly ArticleItem[];
  /** One published article in `lang` (English where untranslated), or null. */
  get(slug: string, lang: LanguageCode): ArticleItem | null;
  /** `get` with the article's Markdown body, read from where the bodies are kept. */
  read(slug: string, lang: LanguageCode): Promise<Article | null>;
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
  /** The digest of a translation written in `lang` (contentDigest), published or scheduled; undefined where it is not written. */
  digestOf(slug: string, lang: LanguageCode): string | undefined;
  /** Every article that is not a draft, newest first, published or scheduled. */
  readonly scheduled: readonly { slug: string; date: string }[];
}

const DAY_MS = 86_400_000;

/** The last day worked out, and the milliseconds it spans: `[from, from + DAY_MS)`. */
let lastDay = { date: '', from: 0 };

/**
 * Today's date in UTC, the day that decides what is published; `now` in
 * milliseconds. Asked on most requests, where formatting a date would be the
 * largest single cost of a small read's own work: it is formatted again only when
 * `now` falls outside the last day's span (a UTC day is exactly DAY_MS here,
 * as JavaScript's clock has no leap seconds).
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
 * The digest of what a follower is sent of a translation: its title, date,
 * excerpt and Markdown body (its HTML and its card are made from these).
 * The Markdown rather than its HTML, so that the digests of an archive cost
 * no rendering at start, and a new version of the renderer is no update.
 */
function contentDigest(source: ArticleSource, date: string): string {
  return createHash('sha256')
    .update(JSON.stringify([source.title, date, source.excerpt, source.body]))
    .digest('base64url');
}

/** What `indexSources` works out of an article file from its text and its English original's. */
export type SourceFacts = Pick<IndexedSource, 'readingTime' | 'outdated' | 'digest'>;

/**
 * Facts worked out by an earlier build of the same code (`known`), by
 * `factsKey`, and those of this one as they are made (`made`): a
 * content-only build works out only its changed files' (src/build/kept-facts.ts).
 */
export interface FactsMemo {
  known: ReadonlyMap<string, SourceFacts>;
  made: Map<string, SourceFacts>;
}

/**
 * What an article file's facts are kept by: its id and the digests of its
 * file and of its English original's (`fileDigest`), which hold everything
 * they are made from. Undefined where a digest is missing.
 */
function factsKey(source: ArticleSource, english: ArticleSource): string | undefined {
  if (source.fileDigest === undefined || english.fileDigest === undefined) return undefined;
  return `${source.slug}/${source.lang} ${source.fileDigest} ${english.fileDigest}`;
}

/**
 * The writer's files as the catalog keeps them, ordered by slug, then
 * language. Drafts are left out entirely; an article needs its English
 * original (the build fails naming the slug otherwise), and its English date
 * decides when every translation appears. Each English body is hashed once
 * here, so that a build of many articles and languages learns every
 * translation's status without reading a file again; a file whose facts
 * `memo` knows is not read at all.
 */
export function indexSources(sources: readonly ArticleSource[], memo?: FactsMemo): IndexedSource[] {
  let indexed = indexedSources.get(sources);
  if (!indexed) {
    indexed = indexedOf(sources, memo);
    indexedSources.set(sources, indexed);
  }
  return indexed;
}

/** `indexSources`' answers by the array they were made from: the build's catalog and content files read the same one. */
const indexedSources = new WeakMap<readonly ArticleSource[], IndexedSource[]>();

function factsOf(source: ArticleSource, english: ArticleSource, stamp: () => string): SourceFacts {
  return {
    readingTime: readingTime(source.body, source.lang),
    outdated: source !== english && translationStatus(source.translatedFrom, stamp()) === 'outdated',
    digest: contentDigest(source, english.date),
  };
}

function indexedOf(sources: readonly ArticleSource[], memo: FactsMemo | undefined): IndexedSource[] {
  const bySlug = new Map<string, Map<LanguageCode, ArticleSource>>();
  for (const source of sources) {
    if (source.draft) continue;
    const translations = bySlug.get(source.slug) ?? new Map<LanguageCode, ArticleSource>();
    translations.set(source.lang, source);
    bySlug.set(source.slug, translations);
  }
  const indexed: IndexedSource[] = [];
  for (const slug of [...bySlug.keys()].sort()) {
    const translations = bySlug.get(slug) as Map<LanguageCode, ArticleSource>;
    const english = translations.get(DEFAULT_LANGUAGE);
    if (!english) throw new Error(`content/articles/${slug}: every article needs its English original, en.md or en.mdx`);
    let stamp: string | undefined;
    const englishStampOnce = () => (stamp ??= englishStamp(english.body));
    for (const lang of LANGUAGE_CODES) {
      const source = translations.get(lang);
      if (!source) continue;
      const key = factsKey(source, english);
      const facts = (key === undefined ? undefined : memo?.known.get(key)) ?? factsOf(source, english, englishStampOnce);
      if (key !== undefined) memo?.made.set(key, facts);
      indexed.push({ slug, lang, title: source.title, date: english.date, excerpt: source.excerpt, ...facts });
    }
  }
  return indexed;
}

/** The catalog of the writer's files held in memory with their bodies: the build's, and the tests'. */
export function createCatalog(sources: readonly ArticleSource[], site: string): Catalog {
  const bodies = new Map(sources.map((source) => [`${source.slug}/${source.lang}`, source.body]));
  const indexed = indexSources(sources);
  const table: SourceTable = { size: indexed.length, source: (at) => indexed[at] as IndexedSource, all: () => indexed };
  return catalogOf(table, site, ({ slug, lang }) => Promise.resolve(bodies.get(`${slug}/${lang}`) ?? ''));
}

/**
 * Indexed sources by number, in `indexSources`' order: an array, or the
 * build's index read a line at a time (built-content.ts), so that a source
 * is made only when an answer needs it.
 */
export interface SourceTable {
  readonly size: number;
  source(at: number): IndexedSource;
  /** Every source in order, read at once: what the catalog reads when it is made. */
  all(): Iterable<IndexedSource>;
}

/** A digest's bytes (contentDigest: SHA-256): the catalog holds every source's, for the appearances to compare. */
const DIGEST_BYTES = 32;

/** Sources kept made, with their list items: the articles read most, whatever the archive's size. */
const KEPT_ENTRIES = 2048;

/** Languages whose whole list is kept made: the ones asked for most; another is made again from the table. */
const KEPT_LISTS = 4;

const LANGUAGE_NUMBER = new Map<LanguageCode, number>(LANGUAGE_CODES.map((lang, at) => [lang, at]));
const ENGLISH = LANGUAGE_CODES.indexOf(DEFAULT_LANGUAGE);

/** An article as the catalog holds it: its date, and the number of the source written in each language. */
interface ArticleRow {
  date: string;
  /** By LANGUAGE_CODES order; -1 where the article is not written in that language. */
  written: Int32Array;
}

interface Entry {
  item: ArticleItem;
  source: IndexedSource;
}

/**
 * The table's sources grouped by article, and the bytes of every source's
 * digest, one after another; fails on an article without its English original.
 */
function articleRows(table: SourceTable): { rows: Map<string, ArticleRow>; digests: Buffer } {
  const rows = new Map<string, ArticleRow>();
  const digests = Buffer.alloc(table.size * DIGEST_BYTES);
  let at = 0;
  for (const { slug, lang, date, digest } of table.all()) {
    let row = rows.get(slug);
    if (!row) {
      row = { date, written: new Int32Array(LANGUAGE_CODES.length).fill(-1) };
      rows.set(slug, row);
    }
    row.written[LANGUAGE_NUMBER.get(lang) ?? -1] = at;
    if (Buffer.from(digest, 'base64url').copy(digests, at * DIGEST_BYTES) !== DIGEST_BYTES) {
      throw new Error(`The article catalog has a digest of another length than SHA-256's for "${slug}" in ${lang}`);
    }
    at += 1;
  }
  for (const [slug, row] of rows) {
    if ((row.written[ENGLISH] ?? -1) < 0) throw new Error(`The article catalog lists "${slug}" without its English original`);
  }
  return { rows, digests };
}

/** A source's list item, named field by field: an indexed source read from the build's files carries more than a list shows. */
function itemOf(source: IndexedSource, site: string): ArticleItem {
  return {
    slug: source.slug,
    title: source.title,
    date: source.date,
    excerpt: source.excerpt,
    readingTime: source.readingTime,
    lang: source.lang,
    url: `${site}${articlePath(source.slug, source.lang)}`,
    outdated: source.outdated,
  };
}

/**
 * Groups indexed sources into articles, each in every language: a language
 * the article is not written in shows its English original. The catalog
 * holds a row of numbers an article; a source and its list item are made
 * from the table when asked for, and the ones asked for most are kept
 * (KEPT_ENTRIES, KEPT_LISTS), so that its memory does not grow with the
 * archive. Bodies are read through `bodyOf` only when a response needs one.
 */
export function catalogOf(table: SourceTable, site: string, bodyOf: BodyReader): Catalog {
  const { rows, digests } = articleRows(table);
  const made = new LRUCache<number, Entry>({ max: KEPT_ENTRIES });
  function entryAt(at: number): Entry {
    const kept = made.get(at);
    if (kept) return kept;
    const source = table.source(at);
    const entry = { item: itemOf(source, site), source };
    made.set(at, entry);
    return entry;
  }
  /** The source shown for an article in `lang`: its translation, or its English original. */
  function shownAt(row: ArticleRow, lang: LanguageCode): number {
    const translated = row.written[LANGUAGE_NUMBER.get(lang) ?? ENGLISH] ?? -1;
    return translated >= 0 ? translated : (row.written[ENGLISH] ?? -1);
  }
  function writtenAt(slug: string, lang: LanguageCode): number {
    return rows.get(slug)?.written[LANGUAGE_NUMBER.get(lang) ?? -1] ?? -1;
  }

  const scheduled = [...rows.entries()]
    .map(([slug, row]) => ({ slug, date: row.date }))
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));

  let cached: { today: string; view: PublishedView } | undefined;
  function on(today: string): PublishedView {
    if (cached?.today === today) return cached.view;
    const published = scheduled.filter((article) => article.date <= today).map((article) => article.slug);
    const isPublished = new Set(published);
    const lists = new LRUCache<LanguageCode, readonly ArticleItem[]>({ max: KEPT_LISTS });
    const entry = (slug: string, lang: LanguageCode) => {
      const row = isPublished.has(slug) ? rows.get(slug) : undefined;
      return row && entryAt(shownAt(row, lang));
    };
    const view: PublishedView = {
      list: (lang) => {
        let list = lists.get(lang);
        if (!list) {
          list = published.map((slug) => (entry(slug, lang) as Entry).item);
          lists.set(lang, list);
        }
        return list;
      },
      get: (slug, lang) => entry(slug, lang)?.item ?? null,
      read: async (slug, lang) => {
        const found = entry(slug, lang);
        return found ? { ...found.item, content: await bodyOf(found.source) } : null;
      },
      has: (slug) => isPublished.has(slug),
    };
    cached = { today, view };
    return view;
  }

  return {
    on,
    scheduled,
    isOutdated: (slug, lang) => {
      const row = rows.get(slug);
      return row ? entryAt(shownAt(row, lang)).item.outdated : false;
    },
    languagesOf: (slug) => LANGUAGE_CODES.filter((lang) => writtenAt(slug, lang) >= 0),
    digestOf: (slug, lang) => {
      // Held, not read from the table: the appearances ask for every one in turn, every half minute.
      const at = writtenAt(slug, lang);
      return at >= 0 ? digests.toString('base64url', at * DIGEST_BYTES, (at + 1) * DIGEST_BYTES) : undefined;
    },
  };
}
