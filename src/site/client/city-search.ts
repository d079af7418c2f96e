/** A result of GET /api/city-search, as the browser uses it. */
export interface CityResult {
  id: string;
  name: string;
  /** The other name the query matched (München for Munich), when the main name did not. */
  matchedName?: string;
  country: string;
  /** In the language asked for. */
  countryName: string;
  region: string | null;
}

/** Asks the site's own city search, countries named in `lang`; the browser's cache keeps answers for five minutes. */
export async function searchCities(query: string, lang: string): Promise<CityResult[]> {
  const params = new URLSearchParams({ q: query, lang });
  const response = await fetch(`/api/city-search?${params.toString()}`, { headers: { Accept: 'application/json' } });
  if (!response.ok) return [];
  return ((await response.json()) as { results: CityResult[] }).results;
}

/** How a reader knows a city: the name they typed first, the main one after it ("München (Munich)"). */
export function cityLabel({ name, matchedName }: CityResult): string {
  return matchedName ? `${matchedName} (${name})` : name;
}
