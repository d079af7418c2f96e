import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { storedItems } from '../support/stored.ts';
import { newReaderAddress, post } from '../support/writes.ts';

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1' });
});
after(async () => {
  await site.stop();
});

const LYON = { city: 'Lyon', country: 'FR', currency: 'EUR', netPay: 2400, rent: 850, beerPrice: 6.5 };

describe('POST /api/city-submissions', () => {
  test('a city found by name in its country is stored: Ok body and quota headers', async () => {
    const answer = await post(site.url, '/api/city-submissions', LYON, newReaderAddress());
    assert.equal(answer.status, 200);
    assert.equal(answer.json()['ok'], true);
    assert.match(String(answer.json()['id']), /^[\w-]{8,}$/);
    assert.equal(answer.headers['ratelimit'], '"city-submissions";r=2;t=86400');
  });

  test('by the id the city search gives, with accents and case ignored in the name', async () => {
    const search = (await request(`${site.url}/api/city-search?q=zurich&country=ch`)).json<{ results: { id: string; name: string }[] }>();
    const zurich = search.results[0];
    assert.ok(zurich);
    const byId = await post(
      site.url,
      '/api/city-submissions',
      { ...LYON, city: 'whatever', country: 'CH', cityId: zurich.id, currency: 'chf' },
      newReaderAddress(),
    );
    assert.equal(byId.status, 200);
    const byName = await post(
      site.url,
      '/api/city-submissions',
      { ...LYON, city: 'ZÜRICH', country: 'ch', currency: 'CHF' },
      newReaderAddress(),
    );
    assert.equal(byName.status, 200);
  });

  test('by any of its names in that country: München and Мюнхен are Munich, Cologne is Köln', async () => {
    for (const [city, country] of [
      ['München', 'DE'],
      ['Мюнхен', 'de'],
      ['Cologne', 'DE'],
    ]) {
      const answer = await post(site.url, '/api/city-submissions', { ...LYON, city, country }, newReaderAddress());
      assert.equal(answer.status, 200, city);
    }
    const elsewhere = await post(site.url, '/api/city-submissions', { ...LYON, city: 'Cologne', country: 'FR' }, newReaderAddress());
    assert.equal(elsewhere.status, 400, 'not a name of a city in France');
  });

  test('country name, region and coordinates are never taken from the body', async () => {
    const answer = await post(
      site.url,
      '/api/city-submissions',
      { ...LYON, countryName: 'Atlantis', region: 'Nowhere', lat: 0, lon: 0 },
      newReaderAddress(),
    );
    assert.equal(answer.status, 200, 'unknown fields are ignored');
    const stored = (await storedItems(site.dataDir, 'city-submissions')).find(({ id }) => id === answer.json()['id']);
    assert.ok(stored, 'the submission is stored');
    assert.equal(stored['city'], 'Lyon');
    assert.equal(stored['country'], 'FR');
    assert.equal(stored['countryName'], 'France');
    assert.equal(stored['region'], 'Auvergne-Rhône-Alpes');
    assert.ok(Math.abs(Number(stored['lat']) - 45.75) < 0.1 && Math.abs(Number(stored['lon']) - 4.85) < 0.1, 'Lyon’s coordinates');
  });

  const refusals: Record<string, Record<string, unknown>> = {
    'an unknown country': { ...LYON, country: 'XX' },
    'a country that is not two letters': { ...LYON, country: 'FRA' },
    'a city not in that country': { ...LYON, city: 'Lyon', country: 'DE' },
    'an unknown city': { ...LYON, city: 'Atlantis' },
    'a city id from another country': { ...LYON, cityId: '2657896' },
    'rent equal to net pay': { ...LYON, rent: 2400 },
    'rent above net pay': { ...LYON, rent: 3000 },
    'a currency that is not ISO 4217': { ...LYON, currency: 'EURO' },
    'a negative price': { ...LYON, beerPrice: -1 },
    'a price of zero': { ...LYON, netPay: 0 },
    'a price given as text': { ...LYON, netPay: '2400' },
    'a missing field': { city: 'Lyon', country: 'FR', currency: 'EUR', netPay: 2400, rent: 850 },
    'an absurd amount': { ...LYON, netPay: 1e12 },
  };
  for (const [what, body] of Object.entries(refusals)) {
    test(`400 for ${what}`, async () => {
      const answer = await post(site.url, '/api/city-submissions', body, newReaderAddress());
      assert.equal(answer.status, 400);
      assert.equal(typeof answer.json()['error'], 'string');
    });
  }

  test('3 a day per reader; refused ones spend nothing', async () => {
    const address = newReaderAddress();
    await post(site.url, '/api/city-submissions', { ...LYON, rent: 9999 }, address);
    for (let i = 0; i < 3; i++) assert.equal((await post(site.url, '/api/city-submissions', LYON, address)).status, 200);
    const refused = await post(site.url, '/api/city-submissions', LYON, address);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) > 86_000);
  });

  test('the guards apply: foreign origin 403, not JSON 415', async () => {
    assert.equal((await post(site.url, '/api/city-submissions', LYON, newReaderAddress(), { Origin: 'https://evil.example' })).status, 403);
    assert.equal((await post(site.url, '/api/city-submissions', LYON, newReaderAddress(), { 'Content-Type': 'text/plain' })).status, 415);
  });
});

describe('the city page', () => {
  for (const path of ['/cities', '/ar/cities', '/ja/cities']) {
    test(`${path} has the typeahead, the form and the GeoNames attribution`, async () => {
      const answer = await request(`${site.url}${path}`);
      assert.equal(answer.status, 200);
      assert.match(answer.text, /role="combobox"/);
      assert.match(answer.text, /role="listbox"/);
      assert.match(answer.text, /name="netPay"/);
      assert.match(answer.text, /GeoNames/);
      assert.equal((await request(`${site.url}${path}.md`)).status, 200);
    });
  }
});
