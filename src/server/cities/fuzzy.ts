import Fuse from 'fuse.js';
import type { CityIndex } from './city-index.ts';
import { eachTrigram } from './grams.ts';
import { ANY_COUNTRY, MAX_RESULTS, type CityMatch } from './match.ts';

/** How many cities, those sharing the most trigrams with the query, Fuse compares: enough to find the city meant, few enough that the fallback stays cheap. */
const FUZZY_CANDIDATES = 32;
/** The shortest key worth a typo-tolerant search: two letters with a typo match anything. */
const MIN_FUZZY_LENGTH = 3;
/** Fuse's score runs from 0 (identical) to 1; above this the name is too far from the query. */
const THRESHOLD = 0.4;

/**
 * The FUZZY_CANDIDATES cities (of one country, or of any) sharing the most
 * trigrams with the key, more populous first among equals; in rank order.
 */
function candidatesFor(index: CityIndex, key: string, country: number): number[] {
  const trigrams = new Set<number>();
  eachTrigram(key, (bucket) => trigrams.add(bucket));
  const shared = new Uint8Array(index.cities.length);
  // citiesSharing[n]: how many cities share exactly n trigrams with the key.
  const citiesSharing = new Int32Array(trigrams.size + 1);
  const { starts, ranks } = index.byTrigram;
  for (const bucket of trigrams) {
    const end = starts[bucket + 1] ?? 0;
    for (let at = starts[bucket] ?? 0; at < end; at++) {
      const rank = ranks[at] ?? 0;
      if (country !== ANY_COUNTRY && index.countryOf[rank] !== country) continue;
      const before = shared[rank] ?? 0;
      shared[rank] = before + 1;
      if (before > 0) citiesSharing[before] = (citiesSharing[before] ?? 0) - 1;
      citiesSharing[before + 1] = (citiesSharing[before + 1] ?? 0) + 1;
    }
  }
  // Every city sharing more than `least` trigrams is a candidate; the places left go to cities sharing exactly `least`.
  let least = trigrams.size;
  let above = 0;
  while (least > 1 && above + (citiesSharing[least] ?? 0) < FUZZY_CANDIDATES) above += citiesSharing[least--] ?? 0;
  let placesLeft = FUZZY_CANDIDATES - above;
  const candidates: number[] = [];
  // In rank order, so the most populous of those sharing exactly `least` get the places.
  for (let rank = 0; rank < shared.length && candidates.length < FUZZY_CANDIDATES; rank++) {
    const count = shared[rank] ?? 0;
    if (count > least) candidates.push(rank);
    else if (count === least && placesLeft > 0) {
      candidates.push(rank);
      placesLeft--;
    }
  }
  return candidates;
}

/**
 * Matches allowing typos ("zurch" finds Zürich), for when the ranked search
 * finds nothing: fuse.js compares the key with the few cities that share the
 * most trigrams with it. Best score first; equal scores most populous first.
 */
export function fuzzyMatches(index: CityIndex, key: string, country: number): CityMatch[] {
  if (key.length < MIN_FUZZY_LENGTH) return [];
  const candidates = candidatesFor(index, key, country);
  const fuse = new Fuse(
    candidates.map((rank) => index.keys[rank] ?? ''),
    { threshold: THRESHOLD },
  );
  return fuse.search(key, { limit: MAX_RESULTS }).flatMap(({ refIndex }) => {
    const city = index.cities[candidates[refIndex] ?? -1];
    return city ? [{ city, match: 'fuzzy' as const }] : [];
  });
}
