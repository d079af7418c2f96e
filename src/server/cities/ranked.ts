import type { CityIndex } from './city-index.ts';
import { BIGRAM_BUCKETS, LEADING_TRIGRAMS, bigram, bigramSignature, leadingTrigramAt, nameBucket, symbolAt, trigramAt } from './grams.ts';
import { ANY_COUNTRY, MAX_RESULTS, type CityMatch, type MatchKind } from './match.ts';
import type { PostingLists } from './postings.ts';

/** Cities that may match, most populous first: one posting list. */
interface Candidates {
  lists: PostingLists;
  bucket: number;
}

function shorter(a: Candidates, b: Candidates | undefined): Candidates {
  return b && b.lists.size(b.bucket) < a.lists.size(a.bucket) ? b : a;
}

/**
 * The list of the key's trigram held by the fewest cities (its bigram's, for
 * a key of two characters): every city whose name contains the key is in it.
 */
function rarestTrigram(index: CityIndex, key: string): Candidates {
  if (key.length < 3) return { lists: index.byBigram, bucket: bigram(symbolAt(key, 0), symbolAt(key, 1)) };
  let rarest = { lists: index.byTrigram, bucket: trigramAt(key, 0) };
  for (let position = 1; position + 2 < key.length; position++) {
    rarest = shorter(rarest, { lists: index.byTrigram, bucket: trigramAt(key, position) });
  }
  return rarest;
}

/** The list of the key's rarest leading trigram: every city with a name (or later word) starting with the key is in it. */
function rarestLeadingTrigram(lists: PostingLists, key: string): Candidates {
  let rarest = { lists, bucket: leadingTrigramAt(key, 0, -1) };
  for (let place = 0; place < LEADING_TRIGRAMS - 1 && place + 2 < key.length; place++) {
    rarest = shorter(rarest, { lists, bucket: leadingTrigramAt(key, 0, place) });
  }
  return rarest;
}

/** The list of the key's bigram held by the fewest cities of the country: every city there whose name contains the key is in it. */
function rarestBigramIn(index: CityIndex, key: string, country: number): Candidates {
  const lists = index.byCountryBigram;
  const bucketOf = (position: number) => country * BIGRAM_BUCKETS + bigram(symbolAt(key, position), symbolAt(key, position + 1));
  let rarest = { lists, bucket: bucketOf(0) };
  for (let position = 1; position + 1 < key.length; position++) rarest = shorter(rarest, { lists, bucket: bucketOf(position) });
  return rarest;
}

/** A normalized query as every tier compares names with it. */
export interface Query {
  key: string;
  /** The key after a space: how a later word of a name starts. */
  wordStart: string;
  signature: number;
  country: number;
}

/** Whether a name matches the query in this way and no better one; the test that fails most often comes first. */
function matchesAs(kind: MatchKind, name: string, { key, wordStart }: Query): boolean {
  switch (kind) {
    case 'exact':
      return name === key;
    case 'prefix':
      return name.startsWith(key) && name !== key;
    case 'word':
      return name.includes(wordStart) && !name.startsWith(key);
    default:
      return name.includes(key) && !name.startsWith(key) && !name.includes(wordStart);
  }
}

/** Adds, most populous first, the candidates of one kind of match until there are MAX_RESULTS. */
function collect(index: CityIndex, { lists, bucket }: Candidates, kind: MatchKind, query: Query, results: CityMatch[]): void {
  const { countryOf, keys, cities } = index;
  const { starts, ranks, signatures } = lists;
  const end = starts[bucket + 1] ?? 0;
  for (let at = starts[bucket] ?? 0; at < end && results.length < MAX_RESULTS; at++) {
    if (((signatures[at] ?? 0) & query.signature) !== query.signature) continue;
    const rank = ranks[at] ?? 0;
    if (query.country !== ANY_COUNTRY && countryOf[rank] !== query.country) continue;
    const city = cities[rank];
    if (city && matchesAs(kind, keys[rank] ?? '', query)) results.push({ city, match: kind });
  }
}

/** Each kind of match, best first, and the candidates that hold every city matching that way. */
const TIERS: readonly { kind: MatchKind; candidates: (index: CityIndex, key: string) => Candidates }[] = [
  { kind: 'exact', candidates: (index, key) => ({ lists: index.byName, bucket: nameBucket(key) }) },
  { kind: 'prefix', candidates: (index, key) => rarestLeadingTrigram(index.byLeadingTrigram, key) },
  { kind: 'word', candidates: (index, key) => rarestLeadingTrigram(index.byLaterWordTrigram, key) },
  { kind: 'substring', candidates: rarestTrigram },
];

/**
 * The exact, prefix, word-prefix and substring matches of a normalized key
 * (at least two characters) on the cities' main names, in that order, each
 * kind most populous first; then, when that makes fewer than MAX_RESULTS,
 * the cities matching only on an alternate name, by the same tiers.
 */
export function rankedMatches(index: CityIndex, key: string, country: number): CityMatch[] {
  const results: CityMatch[] = [];
  const inCountry = country === ANY_COUNTRY ? undefined : rarestBigramIn(index, key, country);
  const query: Query = { key, wordStart: ` ${key}`, signature: bigramSignature(key), country };
  for (const { kind, candidates } of TIERS) {
    if (results.length === MAX_RESULTS) break;
    collect(index, shorter(candidates(index, key), inCountry), kind, query, results);
  }
  // Main names first, as ranked; alternate names only fill the places left.
  if (results.length < MAX_RESULTS) index.alternates.fill(index.cities, index.countryOf, query, results);
  return results;
}
