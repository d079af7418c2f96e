import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { cacheableJson, jsonError } from '../http/json.ts';
import type { CityIndex } from './city-index.ts';
import { searchCities } from './search.ts';

/** `country` of GET /api/city-search: ISO 3166-1 alpha-2, in any case. */
export const COUNTRY_PATTERN = /^[A-Za-z]{2}$/;

/**
 * GET /api/city-search: `{ query, count, results }`, each result a city with
 * how it matched. A `country` that is not two letters answers 400; a
 * well-formed but unknown one finds nothing.
 */
export function answerCitySearch(request: Request, index: CityIndex): Response {
  const params = new URL(request.url).searchParams;
  const country = params.get('country');
  if (country !== null && !COUNTRY_PATTERN.test(country)) {
    return jsonError(400, 'country must be a two-letter ISO 3166-1 alpha-2 code, such as FR');
  }
  const { query, results } = searchCities(index, params.get('q') ?? '', country ?? undefined);
  const body = { query, count: results.length, results: results.map(({ city, match }) => ({ ...city, match })) };
  return cacheableJson(request, body, CACHE_CONTROL.citySearch);
}
