import { CACHE_CONTROL } from '../http/cache-rules.ts';
import type { ApiAnswer } from '../http/api-answer.ts';
import type { ApiRequest } from '../http/api-request.ts';
import { cacheableJson, jsonError } from '../http/json.ts';
import type { CityIndex } from './city-index.ts';
import { citySearchQuery } from './query.ts';
import { countryNameIn } from './country-names.ts';
import { searchCities } from './search.ts';

/**
 * GET /api/city-search: `{ query, count, results }`, each result a city with
 * how it matched, the alternate name that matched when its main name did
 * not, and its country named in `lang`. A `country` that is not two letters
 * answers 400; a well-formed but unknown one finds nothing.
 */
export function answerCitySearch(request: ApiRequest, index: CityIndex): ApiAnswer {
  const params = request.url.searchParams;
  const parsed = citySearchQuery.safeParse({
    q: params.get('q') ?? undefined,
    country: params.get('country') ?? undefined,
    lang: params.get('lang') ?? undefined,
  });
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? 'Invalid query');
  const { q = '', country, lang } = parsed.data;
  const { query, results } = searchCities(index, q, country);
  const body = {
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
  return cacheableJson(request, body, CACHE_CONTROL.citySearch);
}
