import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request, type Answer } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

const POLICY =
  '"comments";q=100;w=86400, "topic-requests";q=5;w=86400, "city-submissions";q=3;w=86400, "bug-reports";q=5;w=86400, "votes";q=60;w=60';

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE);
});
after(async () => {
  await site.stop();
});

function assertApiFrame(answer: Answer, what: string): void {
  assert.equal(answer.headers['api-version'], '1.7.0', what);
  assert.equal(answer.headers['ratelimit-policy'], POLICY, what);
  if (answer.status !== 304 && answer.status !== 204) {
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8', what);
    assert.doesNotMatch(answer.text, /<html|<!doctype/i, what);
  }
}

describe('the frame of every /api answer', () => {
  test('a success, a 404 and a 304 all carry API-Version and RateLimit-Policy', async () => {
    const ok = await request(`${site.url}/api/articles`);
    assertApiFrame(ok, '200');
    assertApiFrame(await request(`${site.url}/api/articles?slug=nope`), '404');
    assertApiFrame(await request(`${site.url}/api/articles`, { headers: { 'If-None-Match': String(ok.headers['etag']) } }), '304');
  });

  const unknown = ['/api', '/api/', '/api/nope', '/api/articles/extra', '/api/v2/articles', '/api/%E2%9C%93', '/api/..%2f..%2fetc'];
  for (const path of unknown) {
    for (const method of ['GET', 'POST', 'DELETE', 'PATCH']) {
      test(`${method} ${path}: the extended 404 in JSON`, async () => {
        const answer = await request(`${site.url}${path}`, {
          method,
          headers: method === 'GET' ? {} : { 'Content-Type': 'application/json', Origin: 'http://localhost:4321' },
          ...(method === 'GET' ? {} : { body: '{}' }),
        });
        assert.equal(answer.status, 404);
        assertApiFrame(answer, `${method} ${path}`);
        const body = answer.json();
        assert.equal(body['code'], 'not_found');
        assert.equal(body['message'], body['error']);
        assert.equal(typeof body['error'], 'string');
        assert.match(String(body['hint']), /\/openapi\.json/);
        assert.equal(body['documentation'], 'http://localhost:4321/developers');
        assert.equal(body['openapi'], 'http://localhost:4321/openapi.json');
      });
    }
  }

  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    test(`${method} /api/articles: 405 JSON with Allow`, async () => {
      const answer = await request(`${site.url}/api/articles`, { method, headers: { 'Content-Type': 'application/json' }, body: '{}' });
      assert.equal(answer.status, 405);
      assert.equal(answer.headers['allow'], 'GET, HEAD');
      assertApiFrame(answer, method);
      assert.equal(typeof answer.json()['error'], 'string');
    });
  }

  test('a failing route answers 500 JSON whose requestId equals X-Request-Id, and the server lives on', async () => {
    const answer = await request(`${site.url}/api/test-failure`);
    assert.equal(answer.status, 500);
    assertApiFrame(answer, '500');
    const body = answer.json();
    assert.equal(typeof body['error'], 'string');
    assert.match(String(body['requestId']), /^[0-9a-f-]{36}$/);
    assert.equal(answer.headers['x-request-id'], body['requestId']);
    await site.printed(new RegExp(String(body['requestId'])));
    assert.equal((await request(`${site.url}/api/articles`)).status, 200);
  });

  test('a malformed query still answers JSON', async () => {
    for (const query of ['?slug=%ZZ', '?slug=a&slug=b', '?lang[]=fr', `?slug=${'a'.repeat(5000)}`]) {
      const answer = await request(`${site.url}/api/articles${query}`);
      assert.ok(answer.status === 200 || answer.status === 404, `${query}: ${answer.status}`);
      assertApiFrame(answer, query);
    }
  });
});
