import type { CityResult, CitySearchResponse } from '../../server/cities/city-result.ts';
import { fillIn } from './island.ts';
import type { PageTool } from './page-tools.ts';
import { MIN_POPULATION_TEXT } from '../../server/cities/min-population.ts';

/** Asks the site's own city search, countries named in `lang`, within `country` if given; the browser's cache keeps answers for five minutes. */
export async function searchCities(query: string, lang: string, country?: string): Promise<CityResult[]> {
  const params = new URLSearchParams({ q: query, lang, ...(country ? { country } : {}) });
  const response = await fetch(`/api/city-search?${params.toString()}`, { headers: { Accept: 'application/json' } });
  if (!response.ok) return [];
  return ((await response.json()) as CitySearchResponse).results;
}

/** How a reader knows a city: the name they typed first, the main one after it ("München (Munich)"). */
function cityLabel({ name, matchedName }: CityResult): string {
  return matchedName ? `${matchedName} (${name})` : name;
}

/** A city as its option in the typeahead's list reads: "München (Munich), Bavaria, Deutschland". */
export function cityOption(result: CityResult): string {
  return [cityLabel(result), result.region, result.countryName].filter(Boolean).join(', ');
}

/** What the typeahead says of its list, in the page's language; `resultCount` holds `{count}`. */
export interface TypeaheadStrings {
  noResults: string;
  resultCount: string;
}

/** Fewer letters than this find too much to list: the typeahead waits for more. */
const MIN_QUERY_LENGTH = 2;

/** What the typeahead searches for the text typed: the text trimmed, or null while it is too short to search. */
export function typeaheadQuery(typed: string): string | null {
  const query = typed.trim();
  return query.length < MIN_QUERY_LENGTH ? null : query;
}

/** What the typeahead's live region says of the list for `typed`: how many cities it holds, that none matched, or nothing while too little is typed. */
export function listAnnouncement(typed: string, count: number, strings: TypeaheadStrings): string {
  if (typeaheadQuery(typed) === null) return '';
  return count > 0 ? fillIn(strings.resultCount, { count: String(count) }) : strings.noResults;
}

/** The city search as a WebMCP tool: what the typeahead shows, for an agent to find a city's id and country. */
export const CITY_SEARCH_TOOL: PageTool = {
  name: 'search_cities',
  description: `Search the cities of ${MIN_POPULATION_TEXT} or more inhabitants by name (case and accents ignored), best first, at most 8: each with its \`id\` and \`country\`, which the submit_city form takes.`,
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
