import { bundledCityIndex, type City, type CityIndex } from './city-index.ts';
import { nameBucket } from './grams.ts';
import { normalizeName } from '../../i18n/normalize.ts';
import type { PostingLists } from './postings.ts';

export interface CityLookup {
  /** ISO 3166-1 alpha-2, any case. */
  country: string;
  /** An id from the city search; when given, it alone decides. */
  cityId?: string | undefined;
  /** The city's name as a reader wrote it; compared normalized (src/i18n/normalize.ts). */
  name: string;
}

/** The most populous city of one bucket that passes `accepts`, or null. */
function firstAccepted(index: CityIndex, { starts, ranks }: PostingLists, bucket: number, accepts: (rank: number) => boolean): City | null {
  const end = starts[bucket + 1] ?? 0;
  for (let at = starts[bucket] ?? 0; at < end; at++) {
    const rank = ranks[at] ?? 0;
    if (accepts(rank)) return index.cities[rank] ?? null;
  }
  return null;
}

/**
 * The city a reader names, in that country of the bundled dataset: the one
 * with `cityId` when given, else the most populous one whose normalized main
 * name equals `name`'s, else the most populous one with such an alternate
 * name ("München", "Мюнхен"). Null when that country has no such city.
 */
export function findCity({ country, cityId, name }: CityLookup, index: CityIndex = bundledCityIndex()): City | null {
  const countryNumber = index.countryNumber(country.toUpperCase());
  if (countryNumber === undefined) return null;
  if (cityId !== undefined) return firstAccepted(index, index.byCountry, countryNumber, (rank) => index.cities[rank]?.id === cityId);
  const key = normalizeName(name);
  const byMainName = firstAccepted(
    index,
    index.byName,
    nameBucket(key),
    (rank) => index.countryOf[rank] === countryNumber && index.keys[rank] === key,
  );
  return byMainName ?? index.cities[index.alternates.rankNamed(key, countryNumber, index.countryOf)] ?? null;
}

/** The ISO 3166-1 alpha-2 codes (upper case, sorted) of every country that has a city in the bundled dataset. */
export function knownCountryCodes(index: CityIndex = bundledCityIndex()): readonly string[] {
  return index.countryCodes;
}
