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
import { CITY_INDEX_PATH, readCityIndexText, type CityIndexFile } from './index-file.ts';
import { PostingLists } from './postings.ts';
import { AlternateNames } from './alternate-names.ts';
import { indexDigest, LOOKUPS_PATH, readLookups, type LookupsReader, type LookupsWriter } from './saved-lookups.ts';

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
 * lookups that searching them needs: read from the lookups the build saved
 * for this file (saved-lookups.ts), or worked out when the file is loaded.
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

  /** `saved`: the lookups saved for this very file, read in the order `save` writes them. */
  constructor(file: CityIndexFile, saved?: LookupsReader) {
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
    this.countryOf = Uint16Array.from(this.cities, (city) => this.#countryNumbers.get(city.country) ?? 0);
    let signatures: Int32Array | undefined;
    const lists = (bucketCount: number, bucketsOf: (rank: number, add: (bucket: number) => void) => void) => {
      if (saved) return PostingLists.read(saved);
      signatures ??= Int32Array.from(keys, bigramSignature);
      return PostingLists.build(bucketCount, signatures, bucketsOf);
    };
    const keyOf = (rank: number) => keys[rank] ?? '';
    const countryOf = (rank: number) => this.countryOf[rank] ?? 0;
    this.byCountry = lists(this.countryCodes.length, (rank, add) => {
      add(countryOf(rank));
    });
    this.byName = lists(NAME_BUCKETS, (rank, add) => {
      add(nameBucket(keyOf(rank)));
    });
    this.byTrigram = lists(TRIGRAM_BUCKETS, (rank, add) => {
      eachTrigram(keyOf(rank), add);
    });
    this.byLeadingTrigram = lists(LEADING_TRIGRAM_BUCKETS, (rank, add) => {
      eachLeadingTrigram(keyOf(rank), add);
    });
    this.byLaterWordTrigram = lists(LEADING_TRIGRAM_BUCKETS, (rank, add) => {
      eachLaterWordTrigram(keyOf(rank), add);
    });
    this.byBigram = lists(BIGRAM_BUCKETS, (rank, add) => {
      eachBigram(keyOf(rank), add);
    });
    this.byCountryBigram = lists(this.countryCodes.length * BIGRAM_BUCKETS, (rank, add) => {
      const country = countryOf(rank) * BIGRAM_BUCKETS;
      eachBigram(keyOf(rank), (bucket) => {
        add(country + bucket);
      });
    });
    this.alternates = new AlternateNames(file.alternates, saved);
    if (saved && !saved.done) throw new Error('The saved city lookups hold more arrays than the index reads');
  }

  /** Saves the lookups, in the order the constructor reads them. */
  save(writer: LookupsWriter): void {
    for (const lists of [
      this.byCountry,
      this.byName,
      this.byTrigram,
      this.byLeadingTrigram,
      this.byLaterWordTrigram,
      this.byBigram,
      this.byCountryBigram,
    ])
      lists.save(writer);
    this.alternates.save(writer);
  }

  /** The number of a country code (upper case), or undefined when no city is in that country. */
  countryNumber(code: string): number | undefined {
    return this.#countryNumbers.get(code);
  }
}

let bundled: CityIndex | undefined;

/**
 * An index file's text as the server loads it: with the lookups saved for
 * it at `lookupsPath`, when there are some of this very text, else working
 * them out, as it does when the saved ones turn out damaged (cut short, or
 * more or fewer arrays than it reads): a cache never costs an answer.
 */
export function loadCityIndex(text: string, lookupsPath: string): CityIndex {
  const file = JSON.parse(text) as CityIndexFile;
  const saved = readLookups(lookupsPath, indexDigest(text));
  if (saved) {
    try {
      return new CityIndex(file, saved);
    } catch {
      // Worked out below.
    }
  }
  return new CityIndex(file);
}

/** The index written by scripts/build-city-index.ts, read from the project folder on first use. */
export function bundledCityIndex(): CityIndex {
  bundled ??= loadCityIndex(readCityIndexText(CITY_INDEX_PATH), LOOKUPS_PATH);
  return bundled;
}
