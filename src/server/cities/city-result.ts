import { z } from 'zod';
import { MAX_RESULTS, RANKED_KINDS } from './match.ts';
import { MAX_QUERY_LENGTH } from './search.ts';

/**
 * A result of GET /api/city-search, declared once: the response builds it
 * (city-search-response.ts), /openapi.json documents it (`City`), and the
 * browser's typeahead (src/site/client/city-search.ts) and the tests read
 * its type.
 */
export const cityResult = z.object({
  /** GeoNames id. */
  id: z.string(),
  name: z.string(),
  /** The other name the query matched (München for Munich), when the main name did not. */
  matchedName: z.string().optional(),
  country: z.string().regex(/^[A-Z]{2}$/),
  /** In the language asked for. */
  countryName: z.string(),
  region: z.string().nullable(),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  population: z.int().min(0),
  match: z.enum([...RANKED_KINDS, 'fuzzy']),
});

export type CityResult = z.output<typeof cityResult>;

/** The response of GET /api/city-search. */
export const citySearchResponse = z.object({
  query: z.string().max(MAX_QUERY_LENGTH),
  count: z.int().min(0).max(MAX_RESULTS),
  results: z.array(cityResult).max(MAX_RESULTS),
});

export type CitySearchResponse = z.output<typeof citySearchResponse>;
