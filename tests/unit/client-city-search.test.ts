import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CITY_SEARCH, CITY_SEARCH_BY_ALTERNATE_NAME, ZURICH } from '../../src/server/api/examples.ts';
import type { CityResult } from '../../src/server/cities/city-result.ts';
import { cityOption, listAnnouncement, searchCities, typeaheadQuery } from '../../src/site/client/city-search.ts';

const STRINGS = { noResults: 'No city of that name.', resultCount: 'Matching cities: {count}' };

describe('what the typeahead searches for the text typed', () => {
  test('the text trimmed, once it has two letters', () => {
    assert.equal(typeaheadQuery('  zu  '), 'zu');
    assert.equal(typeaheadQuery('São Paulo'), 'São Paulo');
  });

  test('nothing while fewer than two letters are typed, blanks not counted', () => {
    assert.equal(typeaheadQuery(''), null);
    assert.equal(typeaheadQuery('z'), null);
    assert.equal(typeaheadQuery('  z  '), null);
  });
});

describe('what the typeahead shows of a result', () => {
  test('the main name, its region and its country', () => {
    assert.equal(cityOption(ZURICH), 'Zürich, Zurich, Switzerland');
  });

  test('the name the reader typed first, when another name matched, the main one after it', () => {
    const munich = CITY_SEARCH_BY_ALTERNATE_NAME.results.find(({ matchedName }) => matchedName !== undefined);
    assert.ok(munich);
    assert.equal(cityOption(munich), 'München (Munich), Bavaria, Deutschland');
  });

  test('a city without a region goes without it', () => {
    const noRegion: CityResult = { ...ZURICH, region: null };
    assert.equal(cityOption(noRegion), 'Zürich, Switzerland');
  });
});

describe('what the typeahead’s live region says of its list', () => {
  test('how many cities it holds, or that none matched', () => {
    assert.equal(listAnnouncement('zur', 3, STRINGS), 'Matching cities: 3');
    assert.equal(listAnnouncement('atlantis', 0, STRINGS), 'No city of that name.');
  });

  test('nothing while too little is typed', () => {
    assert.equal(listAnnouncement('z', 0, STRINGS), '');
  });
});

describe('searchCities: the site’s own city search', () => {
  test('asks GET /api/city-search with the query, the language and the country, and answers its results', async (t) => {
    const asked: { url: string; accept: string | null }[] = [];
    t.mock.method(globalThis, 'fetch', (url: string, init: RequestInit) => {
      asked.push({ url, accept: new Headers(init.headers).get('Accept') });
      return Promise.resolve(Response.json(CITY_SEARCH));
    });
    assert.deepEqual(await searchCities('zürich', 'de', 'CH'), [ZURICH]);
    assert.deepEqual(await searchCities('zurich', 'en'), [ZURICH]);
    assert.deepEqual(asked, [
      { url: '/api/city-search?q=z%C3%BCrich&lang=de&country=CH', accept: 'application/json' },
      { url: '/api/city-search?q=zurich&lang=en', accept: 'application/json' },
    ]);
  });

  test('a refused search finds nothing', async (t) => {
    t.mock.method(globalThis, 'fetch', () => Promise.resolve(Response.json({ error: 'country: two letters' }, { status: 400 })));
    assert.deepEqual(await searchCities('paris', 'en', 'FRA'), []);
  });
});
