/** A result of GET /api/city-search, as the browser uses it. */
export interface CityResult {
  id: string;
  name: string;
  country: string;
  countryName: string;
  region: string | null;
}

/** Asks the site's own city search; the browser's cache keeps answers for five minutes. */
export async function searchCities(query: string): Promise<CityResult[]> {
  const response = await fetch(`/api/city-search?q=${encodeURIComponent(query)}`, { headers: { Accept: 'application/json' } });
  if (!response.ok) return [];
  return ((await response.json()) as { results: CityResult[] }).results;
}
