import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ZURICH } from '../../src/server/api/examples.ts';
import type { CitySearchResponse as Envelope } from '../../src/server/cities/city-result.ts';
import { assertRevalidates, request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE);
});
after(async () => {
  await site.stop();
});

const search = async (query: string) => (await request(`${site.url}/api/city-search${query}`)).json<Envelope>();

describe('GET /api/city-search', () => {
  test('answers the envelope with every field of a result, in that order', async () => {
    const answer = await request(`${site.url}/api/city-search?q=Z%C3%BCrich`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    const envelope = answer.json<Envelope>();
    assert.deepEqual(Object.keys(envelope), ['query', 'count', 'results']);
    assert.equal(envelope.query, 'Zürich');
    assert.equal(envelope.count, envelope.results.length);
    assert.deepEqual(envelope.results[0], ZURICH);
  });

  test('case and accents are ignored; ranking exact, prefix, word, substring', async () => {
    assert.equal((await search('?q=SAO%20PAULO')).results[0]?.name, 'São Paulo');
    const paris = await search('?q=paris');
    assert.deepEqual(paris.results.map(({ name, country, match }) => `${name} ${country} ${match}`).slice(0, 2), [
      'Paris FR exact',
      'Paris US exact',
    ]);
    assert.equal((await search('?q=ondon')).results[0]?.match, 'substring');
  });

  test('a typo is forgiven only when nothing matches as typed', async () => {
    const { results } = await search('?q=zurch');
    assert.equal(results[0]?.name, 'Zürich');
    assert.equal(results[0].match, 'fuzzy');
  });

  test('at most 8 results, and a city without a known region says null', async () => {
    const { results, count } = await search('?q=san');
    assert.equal(count, 8);
    assert.equal(results.length, 8);
    const { results: willemstad } = await search('?q=willemstad&country=CW');
    assert.equal(willemstad[0]?.region, null);
  });

  test('country limits the results to that country, in any case', async () => {
    for (const country of ['US', 'us']) {
      const { results } = await search(`?q=san&country=${country}`);
      assert.equal(results.length, 8);
      assert.ok(results.every((result) => result.country === 'US'));
    }
    assert.deepEqual(await search('?q=paris&country=ZZ'), { query: 'paris', count: 0, results: [] });
  });

  test('other names fill the list after the main names, each with the name that matched', async () => {
    const { results } = await search('?q=m%C3%BCnc&lang=de');
    const munich = results.find(({ name }) => name === 'Munich');
    assert.ok(munich, 'Munich is found by München');
    assert.equal(munich.matchedName, 'München');
    assert.equal(munich.countryName, 'Deutschland');
    const firstOther = results.findIndex(({ matchedName }) => matchedName !== undefined);
    assert.ok(
      results.slice(firstOther).every(({ matchedName }) => matchedName !== undefined),
      'main names come first',
    );
    for (const [query, name] of [
      ['cologne', 'Köln'],
      ['%E6%9D%B1%E4%BA%AC', 'Tokyo'],
      ['%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0', 'Moscow'],
    ]) {
      assert.equal((await search(`?q=${query}`)).results[0]?.name, name, query);
    }
  });

  test('lang names the countries; an unknown one answers in English, and only a known lang changes the answer', async () => {
    assert.equal((await search('?q=tokyo&lang=ja')).results[0]?.countryName, '日本');
    assert.equal((await search('?q=tokyo&lang=ar')).results[0]?.countryName, 'اليابان');
    assert.equal((await search('?q=tokyo&lang=nope')).results[0]?.countryName, 'Japan');
    assert.equal((await search('?q=tokyo')).results[0]?.countryName, 'Japan');
  });

  test('no q, or under two letters: an empty list', async () => {
    for (const query of ['', '?q=', '?q=a', '?q=%20%20b%20', '?q=12', '?country=FR']) {
      const envelope = await search(query);
      assert.equal(envelope.count, 0, query);
      assert.deepEqual(envelope.results, [], query);
    }
  });

  test('the query shown is trimmed and cut to 80 characters', async () => {
    assert.equal((await search('?q=%20%20paris%20')).query, 'paris');
    assert.equal((await search(`?q=${'y'.repeat(200)}`)).query, 'y'.repeat(80));
  });

  for (const country of ['USA', '1', 'U1', '', 'u', 'ÉT']) {
    test(`400 JSON naming the field for country=${JSON.stringify(country)}`, async () => {
      const answer = await request(`${site.url}/api/city-search?q=paris&country=${encodeURIComponent(country)}`);
      assert.equal(answer.status, 400);
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(answer.headers['api-version'], '1.7.0');
      assert.match(String(answer.json()['error']), /country/);
    });
  }
});

describe('headers and methods of GET /api/city-search', () => {
  test('Cache-Control for a day at the CDN, an ETag that answers 304, and the API headers', async () => {
    const url = `${site.url}/api/city-search?q=lyon`;
    const { first, again } = await assertRevalidates(url);
    assert.equal(first.headers['cache-control'], 'public, max-age=300, s-maxage=86400');
    assert.equal(first.headers['api-version'], '1.7.0');
    assert.ok(first.headers['ratelimit-policy']);
    assert.equal(first.headers['ratelimit'], undefined, 'a read spends no quota');
    assert.equal(again.headers['api-version'], '1.7.0');
    const other = await request(`${site.url}/api/city-search?q=lille`, { headers: { 'If-None-Match': String(first.headers['etag']) } });
    assert.equal(other.status, 200, 'another query has another tag');
  });

  test('HEAD answers the headers without a body', async () => {
    const answer = await request(`${site.url}/api/city-search?q=lyon`, { method: 'HEAD' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.length, 0);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(answer.headers['cache-control'], 'public, max-age=300, s-maxage=86400');
  });

  for (const method of ['POST', 'PUT', 'DELETE']) {
    test(`${method}: 405 JSON with Allow`, async () => {
      const answer = await request(`${site.url}/api/city-search?q=lyon`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.equal(answer.status, 405);
      assert.equal(answer.headers['allow'], 'GET, HEAD');
      assert.equal(answer.headers['api-version'], '1.7.0');
      assert.equal(typeof answer.json()['error'], 'string');
    });
  }
});
