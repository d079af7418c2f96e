import {
  BIGRAM_BUCKETS,
  LEADING_TRIGRAM_BUCKETS,
  NAME_BUCKETS,
  TRIGRAM_BUCKETS,
  bigramSignature,
  eachBigram,
  eachLaterWordTrigram,
  eachLeadingTrigram,
  eachTrigram,
  nameBucket,
} from './grams.ts';
import { CITY_INDEX_PATH, readCityIndexFile, type CityIndexFile } from './index-file.ts';
import { PostingLists } from './postings.ts';
import { AlternateNames } from './alternate-names.ts';

/** A city as the API and the city submissions show it. */
export interface City {
  /** GeoNames id. */
  id: string;
  name: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** The country's English name. */
  countryName: string;
  /** Name of the first-level division (state, region, canton…), or null when the data has none. */
  region: string | null;
  lat: number;
  lon: number;
  population: number;
}

/**
 * The cities of the index file by rank (0 is the most populous) and the
 * lookups that searching them needs, built once when the file is loaded.
 */
export class CityIndex {
  readonly cities: readonly City[];
  /** The normalized name of each city. */
  readonly keys: readonly string[];
  /** Every country that has a city, sorted. */
  readonly countryCodes: readonly string[];
  /** The country number of each city (its place in `countryCodes`). */
  readonly countryOf: Uint16Array;
  /** Country number → its cities. */
  readonly byCountry: PostingLists;
  /** Bucket of a whole name → the cities of that name (and of a few others). */
  readonly byName: PostingLists;
  /** Trigram (with the start mark) → the cities whose names hold it. */
  readonly byTrigram: PostingLists;
  /** Trigram at one of the first places of the name (grams.ts) → the cities whose names hold it there. */
  readonly byLeadingTrigram: PostingLists;
  /** Trigram at one of the first places of a later word → the cities with such a word. */
  readonly byLaterWordTrigram: PostingLists;
  /** Bigram → the cities whose names hold it. */
  readonly byBigram: PostingLists;
  /** Country number × BIGRAM_BUCKETS + bigram → the cities of that country whose names hold it. */
  readonly byCountryBigram: PostingLists;
  /** The alternate names of every city. */
  readonly alternates: AlternateNames;
  readonly #countryNumbers: ReadonlyMap<string, number>;

  constructor(file: CityIndexFile) {
    const { countries, regions } = file;
    this.countryCodes = Object.keys(countries).sort();
    this.#countryNumbers = new Map(this.countryCodes.map((code, number) => [code, number]));
    this.cities = file.cities.map(([id, name, , country, admin1, lat, lon, population]) => ({
      id,
      name,
      country,
      countryName: countries[country] ?? country,
      region: regions[`${country}.${admin1}`] ?? null,
      lat,
      lon,
      population,
    }));
    const keys = file.cities.map((row) => row[2]);
    this.keys = keys;
    const signatures = Int32Array.from(keys, bigramSignature);
    this.countryOf = Uint16Array.from(this.cities, (city) => this.#countryNumbers.get(city.country) ?? 0);
    const keyOf = (rank: number) => keys[rank] ?? '';
    const countryOf = (rank: number) => this.countryOf[rank] ?? 0;
    this.byCountry = new PostingLists(this.countryCodes.length, signatures, (rank, add) => {
      add(countryOf(rank));
    });
    this.byName = new PostingLists(NAME_BUCKETS, signatures, (rank, add) => {
      add(nameBucket(keyOf(rank)));
    });
    this.byTrigram = new PostingLists(TRIGRAM_BUCKETS, signatures, (rank, add) => {
      eachTrigram(keyOf(rank), add);
    });
    this.byLeadingTrigram = new PostingLists(LEADING_TRIGRAM_BUCKETS, signatures, (rank, add) => {
      eachLeadingTrigram(keyOf(rank), add);
    });
    this.byLaterWordTrigram = new PostingLists(LEADING_TRIGRAM_BUCKETS, signatures, (rank, add) => {
      eachLaterWordTrigram(keyOf(rank), add);
    });
    this.byBigram = new PostingLists(BIGRAM_BUCKETS, signatures, (rank, add) => {
      eachBigram(keyOf(rank), add);
    });
    this.byCountryBigram = new PostingLists(this.countryCodes.length * BIGRAM_BUCKETS, signatures, (rank, add) => {
      const country = countryOf(rank) * BIGRAM_BUCKETS;
      eachBigram(keyOf(rank), (bucket) => {
        add(country + bucket);
      });
    });
    this.alternates = new AlternateNames(file.alternates);
  }

  /** The number of a country code (upper case), or undefined when no city is in that country. */
  countryNumber(code: string): number | undefined {
    return this.#countryNumbers.get(code);
  }
}

let bundled: CityIndex | undefined;

/** The index written by scripts/build-city-index.ts, read from the project folder on first use. */
export function bundledCityIndex(): CityIndex {
  bundled ??= new CityIndex(readCityIndexFile(CITY_INDEX_PATH));
  return bundled;
}
