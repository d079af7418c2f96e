import type { City } from './city-index.ts';

export const MAX_RESULTS = 8;
/** Stands for "any country" where a country number is expected. */
export const ANY_COUNTRY = -1;

/** How a city matched: its whole name, its start, the start of a later word, anywhere inside, or only allowing typos. */
export type MatchKind = 'exact' | 'prefix' | 'word' | 'substring' | 'fuzzy';

/** The ranked kinds of match, best first: every name is tried tier by tier. */
export const RANKED_KINDS = ['exact', 'prefix', 'word', 'substring'] as const;
export type RankedKind = (typeof RANKED_KINDS)[number];

export interface CityMatch {
  city: City;
  match: MatchKind;
  /** The alternate name that matched ("München" for Munich), when the main name did not. */
  matchedName?: string | undefined;
}
