import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { API_VERSION, RATE_LIMIT_POLICY } from '../../src/server/http/api-headers.ts';
import { withApiFrame } from '../../src/server/http/api-frame.ts';
import { sharedMaxAge } from '../../src/server/http/cache-rules.ts';
import { etagOf, matchesIfNoneMatch } from '../../src/server/http/etag.ts';

describe('the API frame', () => {
  test('a thrown error becomes a 500 JSON with a requestId equal to X-Request-Id', async (t) => {
    t.mock.method(console, 'error', () => undefined);
    const response = await withApiFrame(() => Promise.reject(new Error('boom')));
    assert.equal(response.status, 500);
    const body = (await response.json()) as { error: string; requestId: string };
    assert.equal(body.requestId, response.headers.get('X-Request-Id'));
    assert.equal(response.headers.get('API-Version'), API_VERSION);
  });

  test('an HTML error page becomes a JSON error of the same status', async () => {
    const response = await withApiFrame(() =>
      Promise.resolve(new Response('<h1>nope</h1>', { status: 404, headers: { 'Content-Type': 'text/html' } })),
    );
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('Content-Type'), 'application/json; charset=utf-8');
    assert.deepEqual(await response.json(), { error: 'Not found' });
  });

  test('a bare 5xx gets a requestId too', async (t) => {
    t.mock.method(console, 'error', () => undefined);
    const response = await withApiFrame(() => Promise.resolve(new Response(null, { status: 503 })));
    assert.equal(response.status, 503);
    assert.ok(((await response.json()) as { requestId?: string }).requestId);
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
