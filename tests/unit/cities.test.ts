import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { buildCityIndex, formatCityIndex } from '../../src/build/city-index.ts';
import { MIN_POPULATION } from '../../src/server/cities/min-population.ts';
import { ZURICH } from '../../src/server/api/examples.ts';
import { apiRequestOf } from '../../src/server/api-frame/api-request.ts';
import { serveCitySearch } from '../../src/server/cities/city-search-response.ts';
import { CityIndex, loadCityIndex } from '../../src/server/cities/city-index.ts';
import { indexDigest, LookupsReader, LookupsWriter } from '../../src/server/cities/saved-lookups.ts';
import { cityResult, type CitySearchResponse } from '../../src/server/cities/city-result.ts';
import { findCity, knownCountryCodes } from '../../src/server/cities/find-city.ts';
import type { CityIndexFile } from '../../src/server/cities/index-file.ts';
import { hasTwoLetters, normalizeName } from '../../src/i18n/normalize.ts';
import { MAX_RESULTS, type CityMatch } from '../../src/server/cities/match.ts';
import { MAX_QUERY_LENGTH, searchCities } from '../../src/server/cities/search.ts';

// The index as the server reads it: the text the build writes, from the installed packages.
const indexText = formatCityIndex(buildCityIndex());
const index = new CityIndex(JSON.parse(indexText) as CityIndexFile);

const search = (q: string, country?: string) => searchCities(index, q, country).results;
/** The matches on main names: their ranking is the contract's, whatever alternate names fill the list after them. */
const searchMainNames = (q: string, country?: string) => search(q, country).filter(({ matchedName }) => matchedName === undefined);
const describeMatch = ({ city, match }: CityMatch) => `${city.name} ${city.country} ${match}`;
const isDistrict = ({ city }: CityMatch) => /\(Kreis \d+\) \//.test(city.name);

function assertMostPopulousFirst(results: CityMatch[]): void {
  const populations = results.map(({ city }) => city.population);
  assert.deepEqual(
    populations,
    [...populations].sort((a, b) => b - a),
  );
}

describe('normalizing names', () => {
  const cases: [string, string][] = [
    ['Zürich', 'zurich'],
    ['ZURICH', 'zurich'],
    ['São Paulo', 'sao paulo'],
    ['Saint-Étienne', 'saint etienne'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['Łódź', 'lodz'],
    ['Ærøskøbing', 'aeroskobing'],
    ['Œuvre', 'oeuvre'],
    ['İstanbul', 'istanbul'],
    ['Kam’yanets’-Podil’s’kyy', 'kam yanets podil s kyy'],
    ['  St.  Louis ', 'st louis'],
    ['Halle (Saale)', 'halle saale'],
    ['Biel/Bienne', 'biel bienne'],
    ['Москва', 'москва'],
  ];
  for (const [name, expected] of cases) {
    test(`${name} → ${expected}`, () => {
      assert.equal(normalizeName(name), expected);
    });
  }
  test('two letters are the least a query needs; digits, spaces and punctuation are no letters', () => {
    assert.equal(hasTwoLetters('pa'), true);
    assert.equal(hasTwoLetters('ss'), true);
    for (const text of ['', 'a', 'a 1', '12', '.-', 'é']) assert.equal(hasTwoLetters(normalizeName(text)), false, text);
  });
});

describe('the generated index', () => {
  test('is the same, byte for byte, every time it is built', () => {
    assert.equal(formatCityIndex(buildCityIndex()), indexText);
  });

  test('holds cities of at least 15,000 inhabitants, most populous first, and no city district', () => {
    assert.ok(index.cities.length > 20_000, `${index.cities.length}`);
    assert.ok(index.cities.every(({ population }) => population >= MIN_POPULATION));
    assertMostPopulousFirst(index.cities.map((city) => ({ city, match: 'exact' })));
    assert.deepEqual(
      index.cities.filter(({ name }) => name.startsWith('Zürich')).map(({ name }) => name),
      ['Zürich'],
    );
  });
});

describe('ranking', () => {
  test('"paris": Paris, France first, an exact match; then Paris, Texas', () => {
    const results = search('paris');
    assert.deepEqual(results.slice(0, 2).map(describeMatch), ['Paris FR exact', 'Paris US exact']);
    assert.equal(results[0]?.city.countryName, 'France');
    assert.equal(results[0].city.region, 'Île-de-France');
  });

  test('"san": the city named San, then prefixes by population', () => {
    const results = search('san');
    assert.equal(results.length, MAX_RESULTS);
    assert.equal(describeMatch(results[0] as CityMatch), 'San ML exact');
    const prefixes = results.slice(1);
    assert.ok(prefixes.every(({ match }) => match === 'prefix'));
    assertMostPopulousFirst(prefixes);
    assert.deepEqual(
      prefixes.slice(0, 3).map(({ city }) => city.name),
      ['Santiago', 'Santo Domingo', 'Sanaa'],
    );
  });

  test('"sao paulo" finds São Paulo first', () => {
    assert.equal(describeMatch(search('sao paulo')[0] as CityMatch), 'São Paulo BR exact');
  });

  test('"ZURICH" finds Zürich first and no district anywhere', () => {
    for (const query of ['ZURICH', 'zurich', 'Zürich', 'zür', 'kreis', 'seebach', 'oerlikon']) {
      const results = search(query);
      assert.ok(!results.some(isDistrict), `${query}: ${results.map(describeMatch).join(', ')}`);
    }
    assert.deepEqual(search('ZURICH').map(describeMatch), ['Zürich CH exact', 'Lake Zurich US word']);
  });

  test('"new york": New York City by prefix, then a later word', () => {
    assert.deepEqual(search('new york').slice(0, 2).map(describeMatch), ['New York City US prefix', 'West New York US word']);
  });

  test('exact, then prefix, then word prefix, then substring', () => {
    const kinds = search('york').map(({ match }) => match);
    assert.deepEqual(kinds, ['exact', 'exact', 'prefix', 'prefix', 'word', 'word', 'word', 'word']);
    const order = ['exact', 'prefix', 'word', 'substring'];
    for (const query of ['paris', 'halle', 'vitoria', 'lodz', 'mar']) {
      const results = searchMainNames(query);
      const ranks = results.map(({ match }) => order.indexOf(match));
      assert.deepEqual(ranks, [...ranks].sort(), query);
      for (const kind of order) assertMostPopulousFirst(results.filter(({ match }) => match === kind));
    }
  });

  test('"ondon" finds London inside the name', () => {
    const results = search('ondon');
    assert.equal(describeMatch(results[0] as CityMatch), 'London GB substring');
    assert.ok(results.every(({ match }) => match === 'substring'));
  });

  test('a country keeps that country only, in any case', () => {
    for (const country of ['US', 'us', 'Us']) {
      const results = search('san', country);
      assert.equal(results.length, MAX_RESULTS);
      assert.ok(results.every(({ city }) => city.country === 'US'));
      assert.deepEqual(
        results.slice(0, 3).map(({ city }) => city.name),
        ['San Antonio', 'San Diego', 'San Jose'],
      );
    }
    assert.deepEqual(searchMainNames('paris', 'US').map(describeMatch), ['Paris US exact']);
    assert.deepEqual(search('paris', 'ZZ'), []);
  });
});

describe('typos', () => {
  test('"zurch" finds Zürich, marked fuzzy', () => {
    assert.equal(describeMatch(search('zurch')[0] as CityMatch), 'Zürich CH fuzzy');
    assert.equal(describeMatch(search('Zurch', 'ch')[0] as CityMatch), 'Zürich CH fuzzy');
  });

  test('other common slips', () => {
    for (const [query, city] of [
      ['lndon', 'London'],
      ['barcelna', 'Barcelona'],
      ['berln', 'Berlin'],
      ['moskow', 'Moscow'],
      ['los angelos', 'Los Angeles'],
      ['rio de janiero', 'Rio de Janeiro'],
    ]) {
      assert.equal(search(query ?? '')[0]?.city.name, city, query);
    }
  });

  test('only when the ranked search finds nothing, and never mixed with it', () => {
    for (const query of ['paris', 'ondon', 'xq', 'zurich']) {
      assert.ok(!search(query).some(({ match }) => match === 'fuzzy'), query);
    }
    assert.ok(search('zurch').every(({ match }) => match === 'fuzzy'));
  });

  test('nonsense finds nothing', () => {
    assert.deepEqual(search('qqqqxz'), []);
  });
});

describe('limits', () => {
  test(`at most ${MAX_RESULTS} results`, () => {
    for (const query of ['san', 'an', 'ma', 'zurch']) assert.ok(search(query).length <= MAX_RESULTS, query);
  });

  test('a query under two letters finds nothing', () => {
    for (const query of ['', ' ', 'a', 'Z ', 'é', '1', '12', '.', 'a-1']) assert.deepEqual(search(query), [], query);
    assert.ok(search('ss').length > 0);
  });

  test('the query is trimmed and cut to 80 characters, which the answer shows', () => {
    assert.equal(searchCities(index, '  paris  ').query, 'paris');
    const long = searchCities(index, 'rome '.repeat(20));
    assert.equal(long.query.length, MAX_QUERY_LENGTH - 1, 'the space at the cut is trimmed too');
    assert.equal(searchCities(index, 'x'.repeat(100)).query, 'x'.repeat(MAX_QUERY_LENGTH));
    const emoji = searchCities(index, '😀'.repeat(100)).query;
    assert.equal(Array.from(emoji).length, MAX_QUERY_LENGTH, 'characters, not UTF-16 units');
  });
});

describe('finding the city of a submission', () => {
  test('by id within its country, with country name, region and coordinates', () => {
    const { match: _match, ...zurich } = ZURICH;
    assert.deepEqual(findCity({ country: 'ch', cityId: ZURICH.id, name: 'ignored' }, index), zurich);
    assert.equal(findCity({ country: 'DE', cityId: '2657896', name: 'Zürich' }, index), null, 'an id from another country');
    assert.equal(findCity({ country: 'CH', cityId: '0', name: 'Zürich' }, index), null, 'an unknown id');
  });

  test('by normalized name: the most populous city of that name in that country', () => {
    assert.equal(findCity({ country: 'CH', name: 'ZURICH' }, index)?.id, '2657896');
    assert.equal(findCity({ country: 'US', name: 'paris' }, index)?.region, 'Texas');
    assert.equal(findCity({ country: 'FR', name: 'Paris' }, index)?.population, 2138551);
    assert.equal(findCity({ country: 'DE', name: 'Munich' }, index)?.region, 'Bavaria');
    assert.equal(findCity({ country: 'DE', name: 'Springfield' }, index), null);
    assert.equal(findCity({ country: 'ZZ', name: 'Paris' }, index), null);
  });

  test('the known countries: sorted upper-case codes of every country with a city', () => {
    const codes = knownCountryCodes(index);
    assert.ok(codes.length > 200);
    assert.ok(codes.every((code) => /^[A-Z]{2}$/.test(code)));
    assert.deepEqual([...codes], [...codes].sort());
    for (const code of ['CH', 'US', 'FR', 'JP', 'BR']) assert.ok(codes.includes(code), code);
    assert.ok(index.cities.every(({ country }) => codes.includes(country)));
  });
});

describe('the answer of GET /api/city-search', () => {
  const answer = (query: string, headers: Record<string, string> = {}) =>
    serveCitySearch(apiRequestOf(new Request(`https://example.org/api/city-search${query}`, { headers })), index);

  test('the envelope, each city with how it matched, cacheable for a day at the CDN', async () => {
    const response = answer('?q=%20zurich%20&country=ch');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('Cache-Control'), 'public, max-age=300, s-maxage=86400');
    const body = (await response.toResponse().json()) as CitySearchResponse;
    assert.equal(body.query, 'zurich');
    assert.equal(body.count, 1);
    // Every field in the order the result declares them; matchedName only when another name matched.
    assert.deepEqual(
      Object.keys(body.results[0] ?? {}),
      Object.keys(cityResult.shape).filter((field) => field !== 'matchedName'),
    );
    const etag = response.headers.get('ETag') ?? '';
    assert.equal(answer('?q=%20zurich%20&country=ch', { 'If-None-Match': etag }).status, 304);
  });

  test('a country that is not two letters is refused, naming the field', async () => {
    for (const country of ['USA', '1', '', 'F']) {
      const response = answer(`?q=paris&country=${country}`);
      assert.equal(response.status, 400, country);
      assert.match(((await response.toResponse().json()) as { error: string }).error, /country/);
    }
  });
});

describe('other names of cities, in every script', () => {
  const describeFound = ({ city, match, matchedName }: CityMatch) =>
    `${city.name}${matchedName ? ` (${matchedName})` : ''} ${city.country} ${match}`;

  test('normalizing ignores vowel signs and folds compatibility forms', () => {
    assert.equal(normalizeName('مُيُونِخ'), normalizeName('ميونخ'), 'Arabic vowel marks');
    assert.equal(normalizeName('יְרוּשָׁלַיִם'), normalizeName('ירושלים'), 'Hebrew points');
    assert.equal(normalizeName('ＴＯＫＹＯ'), 'tokyo', 'full-width Latin');
    assert.equal(normalizeName('ｷｮｳﾄ'), normalizeName('キョウト'), 'half-width katakana');
    assert.equal(normalizeName('مدينة'), normalizeName('مدينه'), 'ta marbuta');
    assert.equal(normalizeName('東京'), '東京', 'Chinese characters are kept as they are');
  });

  test('"münc": the main names first, as ranked before, then München among the other names', () => {
    const results = search('münc');
    assert.deepEqual(results.map(describeFound), [
      'Muncie US prefix',
      'Muncar ID prefix',
      'Garching bei München DE word',
      'Munich (München) DE prefix',
    ]);
    assert.deepEqual(searchMainNames('münc'), results.slice(0, 3), 'the main-name matches are unchanged');
  });

  test('"cologne" finds Köln; a city is listed once, by its main name when that matches', () => {
    assert.equal(describeFound(search('cologne')[0] as CityMatch), 'Köln (Cologne) DE exact');
    assert.equal(describeFound(search('köln')[0] as CityMatch), 'Köln DE exact');
  });

  for (const [query, expected] of [
    ['東京', 'Tokyo (東京) JP exact'],
    ['Москва', 'Moscow (Москва) RU exact'],
    ['ميونخ', 'Munich (ميونخ) DE exact'],
    ['뮌헨', 'Munich (뮌헨) DE exact'],
    ['मुंबई', 'Mumbai (मुंबई) IN exact'],
    ['İstanbul', 'Istanbul TR exact'],
    ['istanbul', 'Istanbul TR exact'],
  ] as const) {
    test(`"${query}" finds ${expected.split(' ')[0] ?? ''}`, () => {
      assert.equal(describeFound(search(query)[0] as CityMatch), expected);
    });
  }

  test('Chinese and Japanese names are found from inside too; other scripts by prefix and word', () => {
    assert.ok(search('東京').some(({ matchedName, match }) => matchedName === '西東京' && match === 'substring'));
    assert.equal(describeFound(search('моск', 'RU')[0] as CityMatch), 'Moscow (Москва) RU prefix');
  });

  test('other names never push out main names, and fill only the places left', () => {
    assert.ok(
      search('san').every(({ matchedName }) => matchedName === undefined),
      '"san" has eight main-name matches',
    );
    assert.deepEqual(search('Москва', 'US').map(describeFound), ['Moscow (Москва) US exact'], 'the country filter holds');
  });

  test('a typo still finds its city when no name holds it', () => {
    assert.equal(describeFound(search('moskow')[0] as CityMatch), 'Moscow RU fuzzy');
  });

  test('a submission names its city by any of its names in that country', () => {
    assert.equal(findCity({ country: 'DE', name: 'München' }, index)?.name, 'Munich');
    assert.equal(findCity({ country: 'de', name: 'Cologne' }, index)?.name, 'Köln');
    assert.equal(findCity({ country: 'JP', name: '東京' }, index)?.name, 'Tokyo');
    assert.equal(findCity({ country: 'FR', name: 'Cologne' }, index), null, 'not in another country');
  });
});

describe('country names in the reader’s language', () => {
  const GERMANY: Record<string, string> = {
    en: 'Germany',
    fr: 'Allemagne',
    es: 'Alemania',
    pt: 'Alemanha',
    it: 'Germania',
    de: 'Deutschland',
    ru: 'Германия',
    ja: 'ドイツ',
    ko: '독일',
    zh: '德国',
    ar: 'ألمانيا',
    he: 'גרמניה',
    hi: 'जर्मनी',
    tr: 'Almanya',
    kab: 'Lalman',
  };
  const countryNames = async (query: string) =>
    (
      (await serveCitySearch(apiRequestOf(new Request(`https://example.org/api/city-search${query}`)), index)
        .toResponse()
        .json()) as CitySearchResponse
    ).results;

  for (const [lang, name] of Object.entries(GERMANY)) {
    test(`lang=${lang}: ${name}`, async () => {
      assert.equal((await countryNames(`?q=berlin&country=de&lang=${lang}`))[0]?.countryName, name);
    });
  }

  test('an unknown or missing lang answers in English', async () => {
    assert.equal((await countryNames('?q=berlin&country=de&lang=xx'))[0]?.countryName, 'Germany');
    assert.equal((await countryNames('?q=berlin&country=de'))[0]?.countryName, 'Germany');
  });

  test('Kabyle falls back to French where it has no name of its own', async () => {
    const kosovo = knownCountryCodes(index).includes('XK');
    assert.ok(kosovo, 'the index has a city in Kosovo');
    assert.equal((await countryNames('?q=pristina&country=xk&lang=kab'))[0]?.countryName, 'Kosovo');
  });

  test('matchedName comes right after name, and only when another name matched', async () => {
    const munich = (await countryNames('?q=m%C3%BCnchen&country=de&lang=de')).find(({ matchedName }) => matchedName !== undefined);
    assert.deepEqual(Object.keys(munich ?? {}).slice(0, 3), ['id', 'name', 'matchedName']);
    assert.equal(munich?.matchedName, 'München');
    assert.equal((await countryNames('?q=berlin&country=de'))[0]?.matchedName, undefined);
  });
});

describe('the lookups the build saves', () => {
  const text = indexText;
  const saved = new LookupsWriter();
  index.save(saved);
  const bytes = saved.bytes(indexDigest(text));
  const queries = ['san', 'zuri', 'new y', 'mosc', 'moskow', 'münchen', 'Мюнхен', '東京', 'sao pa', 'frankfurt am'];
  const answers = (searched: CityIndex) => queries.map((q) => searchCities(searched, q).results.map(describeMatch));

  test('an index read with them answers every search as one that works them out', () => {
    const read = new CityIndex(JSON.parse(text) as CityIndexFile, LookupsReader.of(bytes, indexDigest(text)));
    assert.deepEqual(answers(read), answers(index));
    assert.deepEqual(read.byTrigram.ranks, index.byTrigram.ranks);
    assert.deepEqual(read.byCountryBigram.signatures, index.byCountryBigram.signatures);
  });

  test('the server loads them from the file saved for its index; of another text, or cut short, it works them out itself', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookups-'));
    try {
      const path = join(dir, 'lookups.bin');
      assert.equal(LookupsReader.of(bytes, indexDigest(`${text} `)), undefined, 'the lookups of another text are not read');
      const damaged = [bytes.subarray(0, bytes.length - 1000), Buffer.concat([bytes, bytes.subarray(44, 48)])];
      for (const file of [bytes, ...damaged]) {
        writeFileSync(path, file);
        const loaded = loadCityIndex(text, path);
        // Read lookups are views over the file's bytes; worked-out ones are arrays of their own.
        assert.equal(loaded.byTrigram.ranks.buffer.byteLength === file.length, file === bytes, `${String(file.length)} bytes read`);
        assert.deepEqual(answers(loaded), answers(index));
      }
      assert.deepEqual(answers(loadCityIndex(text, join(dir, 'none.bin'))), answers(index), 'none saved');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
