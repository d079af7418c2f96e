import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readerKey } from '../../src/server/identity/client-address.ts';
import { readerHash } from '../../src/server/identity/reader-hash.ts';
import { request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { get, newReaderAddress, post } from '../support/writes.ts';

/**
 * The server's log as an operator reads it: one JSON line per request with
 * the fields that say what happened, and nothing that names a reader.
 */
const ARTICLE = 'the-price-of-a-beer';
const SALT = 'a-salt-only-this-test-knows-0123456789';
const CAPTCHA_SECRET = 'captcha-secret-nobody-may-read';

type Line = Record<string, unknown>;

/** Every JSON line the server printed. */
function jsonLines(site: RunningSite): Line[] {
  return site
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
}

/** The access line of the one request to `path` with `method`, waited for: lines leave in batches. */
async function accessLine(site: RunningSite, method: string, path: string): Promise<Line> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = jsonLines(site).filter((line) => line['msg'] === 'request' && line['method'] === method && line['path'] === path);
    if (found.length > 0) {
      assert.equal(found.length, 1, `one line for ${method} ${path}`);
      return found[0] as Line;
    }
    if (Date.now() > deadline) throw new Error(`no access line for ${method} ${path}:\n${site.output()}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

test('one access line per request: time, request id, method, route kind, path without its query, status, duration, bytes', async () => {
  const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', LOG_FORMAT: 'json' });
  try {
    const reader = newReaderAddress();
    const asked = [
      { method: 'GET', path: `/articles/${ARTICLE}`, query: '?utm_source=x', kind: 'page', status: 200 },
      { method: 'GET', path: `/fr/articles/${ARTICLE}.md`, query: '', kind: 'twin', status: 200 },
      { method: 'GET', path: `/threads/${ARTICLE}`, query: '', kind: 'fragment', status: 200 },
      { method: 'GET', path: '/favicon.svg', query: '', kind: 'asset', status: 200 },
      {
        method: 'GET',
        path: '/api/articles',
        query: '?lang=fr&secret=typed-by-a-reader',
        kind: 'api',
        operation: 'getArticles',
        status: 200,
      },
      { method: 'GET', path: '/no-such-page', query: '', kind: 'page', status: 404 },
      { method: 'GET', path: '/healthz', query: '', kind: 'health', status: 200 },
    ];
    const bytes = new Map<string, number>();
    for (const { path, query } of asked) bytes.set(path, (await get(site.url, `${path}${query}`, reader)).body.length);
    const vote = await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, reader);
    assert.equal(vote.status, 200);
    for (const expected of asked) {
      const line = await accessLine(site, expected.method, expected.path);
      const fields = [
        'level',
        'time',
        'requestId',
        'method',
        'kind',
        ...(expected.operation ? ['operation'] : []),
        'path',
        'status',
        'ms',
        'bytes',
        'msg',
      ];
      assert.deepEqual(Object.keys(line), fields, `${expected.path}: these fields, in this order, and no other`);
      assert.equal(line['level'], 'info');
      assert.match(String(line['time']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.match(String(line['requestId']), /^[0-9a-f-]{36}$/);
      assert.equal(line['kind'], expected.kind, expected.path);
      assert.equal(line['operation'], expected.operation, expected.path);
      assert.equal(line['status'], expected.status, expected.path);
      assert.equal(typeof line['ms'], 'number');
      assert.ok((line['ms'] as number) >= 0 && (line['ms'] as number) < 60_000);
      assert.equal(line['bytes'], bytes.get(expected.path), `${expected.path}: the body's bytes`);
    }
    const write = await accessLine(site, 'POST', '/api/votes');
    assert.equal(write['kind'], 'api');
    assert.equal(write['operation'], 'castVote');
    assert.equal(write['status'], 200);
    assert.equal(write['bytes'], vote.body.length);
    assert.doesNotMatch(site.output(), /typed-by-a-reader|utm_source/, 'no query string is logged');
    const ids = jsonLines(site)
      .filter((line) => line['msg'] === 'request')
      .map((line) => line['requestId']);
    assert.equal(new Set(ids).size, ids.length, 'every request its own id');
  } finally {
    await site.stop();
  }
});

test('a 5xx logs its failure and its access line under the request id it answered', async () => {
  const site = await startSite(PREPARED_SITE, { LOG_FORMAT: 'json' });
  try {
    const answer = await request(`${site.url}/api/test-failure`);
    assert.equal(answer.status, 500);
    const requestId = answer.headers['x-request-id'];
    const line = await accessLine(site, 'GET', '/api/test-failure');
    assert.equal(line['requestId'], requestId);
    assert.equal(line['status'], 500);
    const failure = jsonLines(site).find((entry) => entry['level'] === 'error' && entry['requestId'] === requestId);
    assert.ok(failure, 'the error line carries the id');
    assert.match(String(failure['error']), /failing on purpose/);
  } finally {
    await site.stop();
  }
});

test('start-up logs the settings in effect with the secrets hidden; no reader address or hash is ever logged', async () => {
  const site = await startSite(PREPARED_SITE, {
    TRUST_PROXY: '1',
    LOG_FORMAT: 'json',
    IP_HASH_SALT: SALT,
    // One of the two alone: captcha writes fail with 500, whose failure is logged.
    CAPTCHA_SECRET,
  });
  const readers = Array.from({ length: 6 }, () => newReaderAddress());
  // IPv6 readers too, logged nowhere by their /64 either.
  readers.push('2001:db8:77:1::5', '2001:db8:77:2::9');
  try {
    for (const address of readers) {
      assert.equal((await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address)).status, 200);
      await post(site.url, '/api/votes', { articleSlug: 'nope', value: 1 }, address);
      await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 7 }, address);
      assert.equal((await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'hello' }, address)).status, 500);
      await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address, { Origin: 'https://elsewhere.example' });
      await get(site.url, `/api/votes?slug=${ARTICLE}`, address);
      await get(site.url, `/articles/${ARTICLE}`, address);
    }
    const answered = readers.length * 7;
    const deadline = Date.now() + 5000;
    while (jsonLines(site).filter((line) => line['msg'] === 'request').length < answered && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 20));
    const settings = jsonLines(site).find((line) => line['msg'] === 'settings in effect');
    assert.ok(settings, 'the settings line');
    assert.equal(settings['IP_HASH_SALT'], 'set (hidden)');
    assert.equal(settings['CAPTCHA_SECRET'], 'set (hidden)');
    assert.equal(settings['TRUST_PROXY'], '1');
  } finally {
    await site.stop();
  }
  const output = site.output();
  assert.ok(jsonLines(site).filter((line) => line['msg'] === 'request').length >= readers.length * 7, 'every request logged');
  assert.ok(!output.includes(SALT), 'the salt');
  assert.ok(!output.includes(CAPTCHA_SECRET), 'the captcha secret');
  for (const address of readers) {
    assert.ok(!output.includes(address), `${address} in the log`);
    const hash = readerHash(readerKey(address), SALT);
    assert.ok(!output.includes(hash), `${address}'s hash in the log`);
    assert.ok(!output.includes(hash.slice(0, 12)), `a part of ${address}'s hash in the log`);
  }
  assert.ok(!output.includes('2001:db8:77'), 'nor an IPv6 prefix');
});

test('LOG_FORMAT=pretty: the same lines for people, the listening line as start-up scripts expect it', async () => {
  const site = await startSite(PREPARED_SITE, { LOG_FORMAT: 'pretty' });
  try {
    assert.equal((await request(`${site.url}/answers?x=1`)).status, 200);
    await site.printed(
      /\d\d:\d\d:\d\d\.\d{3} INFO: request requestId=[0-9a-f-]{36} method=GET kind=page path=\/answers status=200 ms=[\d.]+ bytes=\d+\n/,
    );
    assert.match(site.output(), /\d\d:\d\d:\d\d\.\d{3} INFO: Serving http:\/\/localhost:4321 on http:\/\/127\.0\.0\.1:\d+\n/);
    assert.ok(
      !site
        .output()
        .split('\n')
        .some((line) => line.startsWith('{')),
      'no JSON line',
    );
  } finally {
    await site.stop();
  }
});
