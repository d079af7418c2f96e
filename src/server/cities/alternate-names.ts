import type { City } from './city-index.ts';
import { ALTERNATES_SEPARATOR } from './index-file.ts';
import { ANY_COUNTRY, MAX_RESULTS, RANKED_KINDS, type CityMatch, type RankedKind } from './match.ts';
import { PostingLists } from './postings.ts';
import type { LookupsReader, LookupsWriter } from './saved-lookups.ts';
import type { Query } from './ranked.ts';

/**
 * The cities' alternate names (endonyms, exonyms, other scripts: München,
 * Мюнхен, ميونخ, 慕尼黑 for Munich), searched only to fill the list when the
 * main names match fewer than MAX_RESULTS cities.
 *
 * Names may be in any script, so grams here are hashed from UTF-16 code units
 * rather than drawn from the Latin alphabet of grams.ts. Each city's names
 * stay in the one string of the index file; an entry is a name's place in
 * it, so the names cost a few typed arrays rather than two strings each.
 * Entries are in city rank order, so every posting list holds them most
 * populous first.
 */

/** Stands before the first character of a name: the gram (START, a, b) is a name starting with "ab". */
const START = 2;
const GRAM_BITS = 18;
/** Buckets of hashed grams: about four names each. */
const GRAM_BUCKETS = 2 ** GRAM_BITS;
const NAME_BUCKETS = 2 ** 17;
function gram2(a: number, b: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) >>> (32 - GRAM_BITS);
}

function gram3(a: number, b: number, c: number): number {
  return (Math.imul(a, 0xcc9e2d51) ^ Math.imul(b, 0x1b873593) ^ Math.imul(c, 0xe6546b64)) >>> (32 - GRAM_BITS);
}

/** Trigrams whose place in a word is kept, from the one with the start mark to the one at the word's fourth character (as grams.ts does). */
const LEADING_PLACES = 5;

/** A name's first word, or one of its later words: their leading trigrams share one table. */
type WordKind = 0 | 1;
const FIRST_WORD: WordKind = 0;
const LATER_WORD: WordKind = 1;

/** The hashed trigram at `place` (-1: the start mark and the first two characters) of a word starting at `word`. */
function leadingGram(text: string, word: number, place: number, kind: WordKind): number {
  const at = word + place;
  const first = place < 0 ? START : text.charCodeAt(at);
  const where = (place + 2 + kind * LEADING_PLACES) << 16;
  return (
    (Math.imul(first ^ where, 0xcc9e2d51) ^
      Math.imul(text.charCodeAt(at + 1), 0x1b873593) ^
      Math.imul(text.charCodeAt(at + 2), 0xe6546b64)) >>>
    (32 - GRAM_BITS)
  );
}

/** The leading trigrams, with their places, of every word of the name `text[start, end)`. */
function eachLeadingGram(text: string, start: number, end: number, add: (bucket: number) => void): void {
  let kind = FIRST_WORD;
  for (let word = start; word < end; kind = LATER_WORD) {
    for (let place = -1; place < LEADING_PLACES - 1 && word + place + 2 < end; place++) add(leadingGram(text, word, place, kind));
    const space = text.indexOf(' ', word);
    if (space === -1 || space >= end) return;
    word = space + 1;
  }
}

/** Whether `text[start, end)` has a character of a script written without spaces: code ranges, a fast test, as it runs on every name. */
function withoutSpaces(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x0e00) continue;
    // Thai and Lao, Myanmar, Khmer; kana, Chinese characters and their compatibility forms.
    if (code <= 0x0eff || (code >= 0x1000 && code <= 0x109f) || (code >= 0x1780 && code <= 0x17ff)) return true;
    if ((code >= 0x3040 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff)) return true;
  }
  return false;
}

function wholeName(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let at = start; at < end; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  return (hash >>> 0) % NAME_BUCKETS;
}

/** 32 bits for the bigrams of `text[start, end)`: a name can contain a query only if it has every bit of the query's. */
function signatureOf(text: string, start: number, end: number): number {
  let signature = 0;
  for (let at = start; at + 1 < end; at++) signature |= 1 << (gram2(text.charCodeAt(at), text.charCodeAt(at + 1)) >>> (GRAM_BITS - 5));
  return signature;
}

/**
 * Every bigram and trigram of the name `text[start, end)` ("東京都" gives 東京,
 * 京都, 東京都), for the inside matches of names in scripts written without
 * spaces (Chinese, Japanese, Thai…), where a name is found from inside
 * (西東京 from 東京). Nothing for the others: there an inside match of an
 * alternate name is mostly a spelling of some other city ("moskow" inside
 * Novomoskowsk), which would keep the typo-tolerant search from answering.
 */
function eachInsideGram(text: string, start: number, end: number, add: (bucket: number) => void): void {
  if (!withoutSpaces(text, start, end)) return;
  for (let at = start; at + 1 < end; at++) add(gram2(text.charCodeAt(at), text.charCodeAt(at + 1)));
  for (let at = start; at + 2 < end; at++) add(gram3(text.charCodeAt(at), text.charCodeAt(at + 1), text.charCodeAt(at + 2)));
}

/** Whether `text[start, end)` holds `part` starting right after a space. */
function hasWordStarting(text: string, start: number, end: number, part: string): boolean {
  for (let space = text.indexOf(' ', start); space !== -1 && space + part.length < end; space = text.indexOf(' ', space + 1)) {
    if (text.startsWith(part, space + 1)) return true;
  }
  return false;
}

/** Whether the name `text[start, end)` matches the query in this way and no better one (as ranked.ts compares main names). */
function matchesAt(kind: RankedKind, text: string, start: number, end: number, { key }: Query): boolean {
  const length = end - start;
  const startsWithKey = text.startsWith(key, start);
  switch (kind) {
    case 'exact':
      return length === key.length && startsWithKey;
    case 'prefix':
      return startsWithKey && length > key.length;
    case 'word':
      return !startsWithKey && hasWordStarting(text, start, end, key);
    default: {
      const name = text.slice(start, end);
      return !startsWithKey && name.includes(key) && !hasWordStarting(text, start, end, key);
    }
  }
}

interface Candidates {
  lists: PostingLists;
  bucket: number;
}

export class AlternateNames {
  /** Per city rank, its names as the index file joins them: `name␟normalized␟name␟normalized…`. */
  readonly #joined: readonly string[];
  /** Per entry: its city's rank, and where its name, its normalized form and their end lie in that city's string. */
  readonly #city: Int32Array;
  readonly #nameStart: Int32Array;
  readonly #keyStart: Int32Array;
  readonly #keyEnd: Int32Array;
  readonly #byName: PostingLists;
  /** Leading trigrams of each word of a name, with their places: the candidates of prefix and word matches. */
  readonly #byWordStart: PostingLists;
  /** Every gram of the names in scripts written without spaces: the candidates of inside matches. */
  readonly #byGram: PostingLists;

  /** `alternates`: per city rank, the joined names of the index file; `saved`: the lookups saved for them (city-index.ts). */
  constructor(alternates: readonly string[], saved?: LookupsReader) {
    this.#joined = alternates;
    if (saved) {
      [this.#city, this.#nameStart, this.#keyStart, this.#keyEnd] = [saved.next(), saved.next(), saved.next(), saved.next()];
      [this.#byName, this.#byWordStart, this.#byGram] = [PostingLists.read(saved), PostingLists.read(saved), PostingLists.read(saved)];
      return;
    }
    let entries = 0;
    for (const joined of alternates) if (joined !== '') entries += (countOf(joined, ALTERNATES_SEPARATOR) + 1) / 2;
    this.#city = new Int32Array(entries);
    this.#nameStart = new Int32Array(entries);
    this.#keyStart = new Int32Array(entries);
    this.#keyEnd = new Int32Array(entries);
    let entry = 0;
    alternates.forEach((joined, rank) => {
      for (let at = 0; at < joined.length; entry++) {
        const keyStart = joined.indexOf(ALTERNATES_SEPARATOR, at) + 1;
        const next = joined.indexOf(ALTERNATES_SEPARATOR, keyStart);
        const keyEnd = next === -1 ? joined.length : next;
        this.#city[entry] = rank;
        this.#nameStart[entry] = at;
        this.#keyStart[entry] = keyStart;
        this.#keyEnd[entry] = keyEnd;
        at = keyEnd + 1;
      }
    });
    const textOf = (at: number) => alternates[this.#city[at] ?? 0] ?? '';
    const signatures = new Int32Array(entries);
    for (let at = 0; at < entries; at++) signatures[at] = signatureOf(textOf(at), this.#keyStart[at] ?? 0, this.#keyEnd[at] ?? 0);
    this.#byName = PostingLists.build(NAME_BUCKETS, signatures, (at, add) => {
      add(wholeName(textOf(at), this.#keyStart[at] ?? 0, this.#keyEnd[at] ?? 0));
    });
    this.#byWordStart = PostingLists.build(GRAM_BUCKETS, signatures, (at, add) => {
      eachLeadingGram(textOf(at), this.#keyStart[at] ?? 0, this.#keyEnd[at] ?? 0, add);
    });
    this.#byGram = PostingLists.build(GRAM_BUCKETS, signatures, (at, add) => {
      eachInsideGram(textOf(at), this.#keyStart[at] ?? 0, this.#keyEnd[at] ?? 0, add);
    });
  }

  /** Saves the entries and their lists, in the order the constructor reads them. */
  save(writer: LookupsWriter): void {
    writer.add(this.#city, this.#nameStart, this.#keyStart, this.#keyEnd);
    for (const lists of [this.#byName, this.#byWordStart, this.#byGram]) lists.save(writer);
  }

  /** An entry's name as GeoNames writes it. */
  #name(entry: number): string {
    return (this.#joined[this.#city[entry] ?? 0] ?? '').slice(this.#nameStart[entry] ?? 0, (this.#keyStart[entry] ?? 1) - 1);
  }

  /** The gram list held by the fewest names among the key's grams: every name containing the key is in it. */
  #rarestGram(key: string): Candidates {
    const lists = this.#byGram;
    let best = gram2(key.charCodeAt(0), key.charCodeAt(1));
    for (let at = 0; at + 2 < key.length; at++) {
      const bucket = gram3(key.charCodeAt(at), key.charCodeAt(at + 1), key.charCodeAt(at + 2));
      if (lists.size(bucket) < lists.size(best)) best = bucket;
    }
    return { lists, bucket: best };
  }

  /** The list of the key's rarest leading trigram: every name whose first (or a later) word starts with the key is in it. */
  #rarestLeading(key: string, kind: WordKind): Candidates {
    const lists = this.#byWordStart;
    let best = leadingGram(key, 0, -1, kind);
    for (let place = 0; place < LEADING_PLACES - 1 && place + 2 < key.length; place++) {
      const bucket = leadingGram(key, 0, place, kind);
      if (lists.size(bucket) < lists.size(best)) best = bucket;
    }
    return { lists, bucket: best };
  }

  #candidates(kind: RankedKind, key: string): Candidates {
    switch (kind) {
      case 'exact':
        return { lists: this.#byName, bucket: wholeName(key, 0, key.length) };
      case 'prefix':
        return this.#rarestLeading(key, FIRST_WORD);
      case 'word':
        return this.#rarestLeading(key, LATER_WORD);
      default:
        return this.#rarestGram(key);
    }
  }

  /**
   * Adds to `results`, up to MAX_RESULTS, the cities not listed yet whose
   * alternate names match the query, tier by tier (exact, prefix, word, and
   * substring for a query in a script written without spaces), each most
   * populous first, with the name that matched.
   */
  fill(cities: readonly City[], countryOf: Uint16Array, query: Query, results: CityMatch[]): void {
    const listed = new Set(results.map(({ city }) => city));
    const signature = signatureOf(query.key, 0, query.key.length);
    for (const kind of RANKED_KINDS) {
      if (kind === 'substring' && !withoutSpaces(query.key, 0, query.key.length)) return;
      const { lists, bucket } = this.#candidates(kind, query.key);
      const { starts, ranks, signatures } = lists;
      const end = starts[bucket + 1] ?? 0;
      for (let at = starts[bucket] ?? 0; at < end && results.length < MAX_RESULTS; at++) {
        if (((signatures[at] ?? 0) & signature) !== signature) continue;
        const entry = ranks[at] ?? 0;
        const rank = this.#city[entry] ?? 0;
        if (query.country !== ANY_COUNTRY && countryOf[rank] !== query.country) continue;
        const city = cities[rank];
        // Read in place: a tuple a candidate would be garbage on the hottest path.
        const text = this.#joined[rank] ?? '';
        if (!city || listed.has(city) || !matchesAt(kind, text, this.#keyStart[entry] ?? 0, this.#keyEnd[entry] ?? 0, query)) continue;
        listed.add(city);
        results.push({ city, match: kind, matchedName: this.#name(entry) });
      }
      if (results.length === MAX_RESULTS) return;
    }
  }

  /** The rank of the most populous city of a country (its number) with an alternate name normalized as `key`; -1 when none. */
  rankNamed(key: string, country: number, countryOf: Uint16Array): number {
    const { starts, ranks } = this.#byName;
    const bucket = wholeName(key, 0, key.length);
    const end = starts[bucket + 1] ?? 0;
    for (let at = starts[bucket] ?? 0; at < end; at++) {
      const entry = ranks[at] ?? 0;
      const rank = this.#city[entry] ?? 0;
      const start = this.#keyStart[entry] ?? 0;
      const stop = this.#keyEnd[entry] ?? 0;
      if (countryOf[rank] === country && stop - start === key.length && (this.#joined[rank] ?? '').startsWith(key, start)) return rank;
    }
    return -1;
  }
}

function countOf(text: string, separator: string): number {
  let count = 0;
  for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, at + 1)) count++;
  return count;
}
