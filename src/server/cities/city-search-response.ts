import type { z } from 'zod';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import type { ApiResponse } from '../api-frame/api-response.ts';
import type { ApiRequest } from '../api-frame/api-request.ts';
import { cacheableJson, refusalResponse } from '../api-frame/json-responses.ts';
import { refusal } from '../api-frame/refusals.ts';
import type { CityIndex } from './city-index.ts';
import type { CitySearchResponse } from './city-result.ts';
import { citySearchQuery } from './query.ts';
import { countryNameIn } from './country-names.ts';
import { searchCities } from './search.ts';

/**
 * The response to a city search: `{ query, count, results }`, each result a
 * city with how it matched, the alternate name that matched when its main
 * name did not, and its country named in `lang`.
 */
export function citySearchBody(index: CityIndex, { q = '', country, lang }: z.output<typeof citySearchQuery>): CitySearchResponse {
  const { query, results } = searchCities(index, q, country);
  return {
    query,
    count: results.length,
    results: results.map(({ city: { id, name, country: code, countryName, ...place }, match, matchedName }) => ({
      id,
      name,
      ...(matchedName === undefined ? {} : { matchedName }),
      country: code,
      countryName: countryNameIn(code, lang, countryName),
      ...place,
      match,
    })),
  };
}

/**
 * GET /api/city-search: citySearchBody. A `country` that is not two letters
 * answers 400; a well-formed but unknown one finds nothing.
 */
export function serveCitySearch(request: ApiRequest, index: CityIndex): ApiResponse {
  const params = request.url.searchParams;
  const parsed = citySearchQuery.safeParse({
    q: params.get('q') ?? undefined,
    country: params.get('country') ?? undefined,
    lang: params.get('lang') ?? undefined,
  });
  if (!parsed.success) return refusalResponse(refusal('invalid_input', parsed.error.issues[0]?.message ?? 'Invalid query'));
  return cacheableJson(request, citySearchBody(index, parsed.data), CACHE_CONTROL.citySearch);
}
