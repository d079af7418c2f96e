import type { CityIndex } from './city-index.ts';
import { fuzzyMatches } from './fuzzy.ts';
import { ANY_COUNTRY, type CityMatch } from './match.ts';
import { hasTwoLetters, normalizeName } from '../../i18n/normalize.ts';
import { rankedMatches } from './ranked.ts';

/** Characters of `q` that count; the rest is cut off. */
export const MAX_QUERY_LENGTH = 80;

export interface CitySearchResult {
  /** The query as used: trimmed and cut to MAX_QUERY_LENGTH characters. */
  query: string;
  results: CityMatch[];
}

function trimmedQuery(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= MAX_QUERY_LENGTH) return trimmed;
  // Cut by code points so that no character is split in half.
  return Array.from(trimmed).slice(0, MAX_QUERY_LENGTH).join('').trimEnd();
}

/**
 * GET /api/city-search's search: `text` trimmed and cut to 80 characters,
 * normalized; under two letters finds nothing. Ranked matches first; only
 * when there are none, matches allowing typos. `country` (any case) keeps one
 * country's cities.
 */
export function searchCities(index: CityIndex, text: string, country?: string): CitySearchResult {
  const query = trimmedQuery(text);
  const key = normalizeName(query);
  const countryNumber = country === undefined ? ANY_COUNTRY : index.countryNumber(country.toUpperCase());
  if (!hasTwoLetters(key) || countryNumber === undefined) return { query, results: [] };
  const ranked = rankedMatches(index, key, countryNumber);
  return { query, results: ranked.length > 0 ? ranked : fuzzyMatches(index, key, countryNumber) };
}
