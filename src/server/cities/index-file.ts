import { accessSync, constants, readFileSync } from 'node:fs';

/**
 * Where the build (scripts/build-city-index.ts) writes the city index,
 * relative to the project root: the server's working folder.
 */
export const CITY_INDEX_PATH = 'data/cities/index.json';

/**
 * One city: GeoNames id, name, its normalized name (src/i18n/normalize.ts), ISO 3166-1
 * alpha-2 country, first-level division code (key of `regions` after
 * `<country>.`), latitude, longitude, population.
 */
export type CityRow = [
  id: string,
  name: string,
  key: string,
  country: string,
  admin1: string,
  lat: number,
  lon: number,
  population: number,
];

/** The generated city index: cities most populous first (equal populations by id), the names they refer to. */
export interface CityIndexFile {
  /** Whose data this is, under which licence: it travels with the data. */
  attribution: string;
  /** Country code → English name. */
  countries: Record<string, string>;
  /** `<country>.<admin1>` → name of the first-level division. */
  regions: Record<string, string>;
  cities: CityRow[];
  /** Each city's alternate names with their normalized forms, as joinAlternates writes them; `''` for none. */
  alternates: string[];
}

/** Separates the names and normalized forms of one city's alternates: a control character no name holds. */
export const ALTERNATES_SEPARATOR = '\u001f';

/** One city's alternate names as `name␟normalized␟name␟normalized…`: one string a city loads far quicker than nested arrays. */
export function joinAlternates(pairs: readonly (readonly [name: string, key: string])[]): string {
  return pairs.flat().join(ALTERNATES_SEPARATOR);
}

function unreadable(path: string, error: unknown): Error {
  return new Error(`Cannot read the city index ${path}: npm run build (or node scripts/build-city-index.ts) writes it`, { cause: error });
}

/** The text of an index written by scripts/build-city-index.ts; a missing one says how to make it. */
export function readCityIndexText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw unreadable(path, error);
  }
}

/** Throws what `readCityIndexFile` would when the index cannot be read, without reading it. */
export function checkCityIndexFile(path: string): void {
  try {
    accessSync(path, constants.R_OK);
  } catch (error) {
    throw unreadable(path, error);
  }
}
