import type { City } from './city-index.ts';

export const MAX_RESULTS = 8;
/** Stands for "any country" where a country number is expected. */
export const ANY_COUNTRY = -1;

/** How a city matched: its whole name, its start, the start of a later word, anywhere inside, or only allowing typos. */
export type MatchKind = 'exact' | 'prefix' | 'word' | 'substring' | 'fuzzy';

export interface CityMatch {
  city: City;
  match: MatchKind;
}
