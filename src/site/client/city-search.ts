import type { CityResult, CitySearchResponse } from '../../server/cities/city-result.ts';
import type { PageTool } from './page-tools.ts';

/** Asks the site's own city search, countries named in `lang`, within `country` if given; the browser's cache keeps answers for five minutes. */
export async function searchCities(query: string, lang: string, country?: string): Promise<CityResult[]> {
  const params = new URLSearchParams({ q: query, lang, ...(country ? { country } : {}) });
  const response = await fetch(`/api/city-search?${params.toString()}`, { headers: { Accept: 'application/json' } });
  if (!response.ok) return [];
  return ((await response.json()) as CitySearchResponse).results;
}

/** How a reader knows a city: the name they typed first, the main one after it ("München (Munich)"). */
export function cityLabel({ name, matchedName }: CityResult): string {
  return matchedName ? `${matchedName} (${name})` : name;
}

/** The city search as a WebMCP tool: what the typeahead shows, for an agent to find a city's id and country. */
export const CITY_SEARCH_TOOL: PageTool = {
  name: 'search_cities',
  description:
    'Search the cities of 15,000 or more inhabitants by name (case and accents ignored), best first, at most 8: each with its `id` and `country`, which the submit_city form takes.',
  inputSchema: {
    type: 'object',
    properties: {
      q: { type: 'string', description: 'A city’s name or part of it, at least 2 letters.' },
      country: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'An ISO 3166-1 alpha-2 code: only that country’s cities.' },
    },
    required: ['q'],
  },
  execute: async ({ q, country }) => ({
    results: await searchCities(String(q), document.documentElement.lang, typeof country === 'string' ? country : undefined),
  }),
};
