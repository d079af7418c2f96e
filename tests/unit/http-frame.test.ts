import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { API_VERSION, RATE_LIMIT_POLICY } from '../../src/server/api-frame/api-headers.ts';
import { ApiResponse } from '../../src/server/api-frame/api-response.ts';
import { withApiFrame } from '../../src/server/api-frame/frame.ts';
import { json } from '../../src/server/api-frame/json-responses.ts';
import { sharedMaxAge } from '../../src/server/http/cache-rules.ts';
import { etagOf, matchesIfNoneMatch } from '../../src/server/http/etag.ts';

describe('the API frame', () => {
  test('a thrown error becomes a 500 JSON with a requestId equal to X-Request-Id', async (t) => {
    t.mock.method(console, 'error', () => undefined);
    const answer = await withApiFrame(() => Promise.reject(new Error('boom')));
    assert.equal(answer.status, 500);
    const body = (await answer.toResponse().json()) as { error: string; requestId: string };
    assert.equal(body.requestId, answer.headers.get('X-Request-Id'));
    assert.equal(answer.headers.get('API-Version'), API_VERSION);
  });

  test('an error thrown before any await, or an answer given without a promise, is framed alike', async (t) => {
    t.mock.method(console, 'error', () => undefined);
    const thrown = await withApiFrame(() => {
      throw new Error('boom');
    });
    assert.equal(thrown.status, 500);
    assert.equal(thrown.headers.get('API-Version'), API_VERSION);
    const given = await withApiFrame(() => json({ ok: true }, { cacheControl: 'no-store' }));
    assert.equal(given.status, 200);
    assert.equal(given.headers.get('RateLimit-Policy'), RATE_LIMIT_POLICY);
  });

  test('header names are matched in any case, and kept in lower case', () => {
    const answer = new ApiResponse(200, { 'Content-Type': 'text/plain', ETAG: '"x"' }, 'x');
    answer.headers.set('X-Request-ID', 'a');
    answer.headers.set('x-request-id', 'b');
    assert.equal(answer.headers.get('content-TYPE'), 'text/plain');
    assert.ok(answer.headers.has('etag'));
    assert.deepEqual(
      [...answer.headers.entries()],
      [
        ['content-type', 'text/plain'],
        ['etag', '"x"'],
        ['x-request-id', 'b'],
      ],
    );
  });

  test('a bare 5xx gets a requestId too', async (t) => {
    t.mock.method(console, 'error', () => undefined);
    const answer = await withApiFrame(() => Promise.resolve(new ApiResponse(503, {}, null)));
    assert.equal(answer.status, 503);
    assert.ok(((await answer.toResponse().json()) as { requestId?: string }).requestId);
  });

  test('an answer becomes a Response with the same status, headers and bytes', async () => {
    const answer = await withApiFrame(() => Promise.resolve(json({ city: 'Zürich' }, { status: 201, cacheControl: 'no-store' })));
    const response = answer.toResponse();
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('Cache-Control'), answer.headers.get('cache-control'));
    assert.equal(response.headers.get('API-Version'), API_VERSION);
    assert.equal(await response.text(), '{"city":"Zürich"}');
  });

  test('the policy lists every quota', () => {
    assert.equal(
      RATE_LIMIT_POLICY,
      '"comments";q=100;w=86400, "topic-requests";q=5;w=86400, "city-submissions";q=3;w=86400, "bug-reports";q=5;w=86400, "votes";q=60;w=60',
    );
  });
});

describe('cache rules and validators', () => {
  test('a shared cache keeps only public answers with a max-age', () => {
    assert.equal(sharedMaxAge('public, max-age=60'), 60);
    assert.equal(sharedMaxAge('public, max-age=300, s-maxage=86400'), 300);
    assert.equal(sharedMaxAge('private, no-store'), 0);
    assert.equal(sharedMaxAge('no-store'), 0);
    assert.equal(sharedMaxAge('max-age=60'), 0);
    assert.equal(sharedMaxAge(null), 0);
  });

  test('If-None-Match compares weakly and accepts lists and *', () => {
    const tag = etagOf('body');
    assert.equal(tag, etagOf('body'));
    assert.notEqual(tag, etagOf('other'));
    assert.ok(matchesIfNoneMatch(tag, tag));
    assert.ok(matchesIfNoneMatch(`"x", W/${tag}`, tag));
    assert.ok(matchesIfNoneMatch('*', tag));
    assert.ok(!matchesIfNoneMatch('"x"', tag));
    assert.ok(!matchesIfNoneMatch(undefined, tag));
  });
});
