import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooseEncoding, encodeBody } from '../../src/server/front/encoding.ts';
import { ResponseCache } from '../../src/server/front/response-cache.ts';

describe('encodings', () => {
  const bodies = encodeBody(Buffer.from('compressible text '.repeat(200)), 5);
  test('kept only when smaller', () => {
    assert.ok(bodies.br && bodies.br.length < bodies.identity.length);
    assert.deepEqual(Object.keys(encodeBody(Buffer.from('tiny'), 5)), ['identity']);
  });
  test('br first, then gzip, never one refused with q=0', () => {
    assert.equal(chooseEncoding('gzip, deflate, br', bodies), 'br');
    assert.equal(chooseEncoding('gzip', bodies), 'gzip');
    assert.equal(chooseEncoding('br;q=0, gzip', bodies), 'gzip');
    assert.equal(chooseEncoding('*', bodies), 'br');
    assert.equal(chooseEncoding('identity', bodies), null);
    assert.equal(chooseEncoding(undefined, bodies), null);
  });
});

describe('the response cache', () => {
  const json = (cacheControl: string, status = 200) =>
    new Response('{"a":1}', { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': cacheControl } });

  test('keeps a public answer for its max-age, by a fake clock', async () => {
    let now = 1_000_000;
    const cache = new ResponseCache({ maxEntries: 10, now: () => now });
    await cache.store('/a', json('public, max-age=60'));
    now += 59_000;
    assert.equal(cache.get('/a')?.age, 59);
    now += 1_000;
    assert.equal(cache.get('/a'), undefined);
  });

  test('never keeps private, no-store, errors or cookies', async () => {
    const cache = new ResponseCache({ maxEntries: 10 });
    await cache.store('/private', json('private, no-store'));
    await cache.store('/error', json('public, max-age=60', 404));
    const withCookie = json('public, max-age=60');
    withCookie.headers.append('Set-Cookie', 'a=b');
    await cache.store('/cookie', withCookie);
    for (const key of ['/private', '/error', '/cookie']) assert.equal(cache.get(key), undefined, key);
  });

  test('drops the least recently used entry past its size', async () => {
    const cache = new ResponseCache({ maxEntries: 2 });
    await cache.store('/1', json('public, max-age=60'));
    await cache.store('/2', json('public, max-age=60'));
    cache.get('/1');
    await cache.store('/3', json('public, max-age=60'));
    assert.ok(cache.get('/1'));
    assert.equal(cache.get('/2'), undefined);
    assert.ok(cache.get('/3'));
  });

  test('adds an ETag to an answer that has none', async () => {
    const cache = new ResponseCache({ maxEntries: 2 });
    const answer = await cache.store('/x', json('public, max-age=60'));
    assert.match(answer.etag, /^"[\w-]+"$/);
  });
});
