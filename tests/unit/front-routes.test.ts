import assert from 'node:assert/strict';
import { IncomingMessage, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { notFoundRoute } from '../../src/server/front/not-found-route.ts';
import { probeRoute } from '../../src/server/front/probe-route.ts';
import { ResponseCache } from '../../src/server/front/response-cache.ts';
import { readCapped } from '../../src/server/http/node-web.ts';
import { servedRecord } from '../../src/server/observability/requests.ts';

/** A response that records what a route wrote, in place of Node's. */
function fakeResponse() {
  const written = { status: 0, headers: [] as unknown, body: undefined as unknown, ended: false };
  const res = {
    writeHead(status: number, headers: unknown) {
      written.status = status;
      written.headers = headers;
      return res;
    },
    end(body?: unknown) {
      written.body = body;
      written.ended = true;
      return res;
    },
  };
  return { res: res as unknown as ServerResponse, written };
}

/** A request as Node makes one, on a socket that is never connected. */
function request(method: string): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  return req;
}

describe('a route alone, without the server', () => {
  const probes = new Map([['/healthz', () => Promise.resolve({ status: 503, body: '{"status":"down"}' })]]);
  const route = probeRoute(probes, 'health', ['x-base', 'yes']);

  test('the probes route answers its path with the base headers, JSON and no-store, and says so in served', async () => {
    const { res, written } = fakeResponse();
    const served = servedRecord();
    assert.equal(await route(request('GET'), res, '/healthz', served), 17);
    assert.equal(written.status, 503);
    assert.deepEqual(written.headers, [
      'x-base',
      'yes',
      'cache-control',
      'no-store',
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      '17',
    ]);
    assert.equal(written.body, '{"status":"down"}');
    assert.equal(served.kind, 'health');
  });

  test('HEAD gets no body; another method 405 with Allow', async () => {
    const head = fakeResponse();
    assert.equal(await route(request('HEAD'), head.res, '/healthz', servedRecord()), 0);
    assert.equal(head.written.body, undefined);
    const post = fakeResponse();
    await route(request('POST'), post.res, '/healthz', servedRecord());
    assert.equal(post.written.status, 405);
    assert.deepEqual((post.written.headers as string[]).slice(4, 6), ['allow', 'GET, HEAD']);
  });

  test('a path that is not its own passes at once, with nothing written', () => {
    const { res, written } = fakeResponse();
    assert.equal(route(request('GET'), res, '/healthz/', servedRecord()), null);
    assert.equal(written.ended, false);
  });
});

describe('the not-found route alone', () => {
  const french = {
    status: 404,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=60' },
    etag: '"fr"',
    bodies: { identity: Buffer.from('Page introuvable') },
  };
  const pages = new Map([['fr' as const, french]]);

  test('answers with the 404 page of the path’s language, and keeps it for the address as asked', async () => {
    const missing = new ResponseCache({ maxEntries: 10 });
    const route = notFoundRoute(pages, missing, { 'X-Base': 'yes' });
    const { res, written } = fakeResponse();
    const sent = await route(request('GET'), res, new URL('https://example.org/fr/nulle-part?utm=x'), servedRecord());
    assert.equal(sent, 'Page introuvable'.length);
    assert.equal(written.status, 404);
    assert.deepEqual(written.headers, {
      'X-Base': 'yes',
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'public, max-age=60',
      // A page path answers HTML or its Markdown twin by Accept.
      Vary: 'Accept',
      'Content-Length': 16,
    });
    assert.equal(Buffer.from(written.body as Buffer).toString(), 'Page introuvable');
    // Kept under the address without the query the page does not read.
    assert.equal(missing.get('/fr/nulle-part')?.response, french);
  });

  test('passes a path whose language has no such page, writing and keeping nothing', () => {
    const missing = new ResponseCache({ maxEntries: 10 });
    const { res, written } = fakeResponse();
    assert.equal(notFoundRoute(pages, missing, {})(request('GET'), res, new URL('https://example.org/nowhere'), servedRecord()), null);
    assert.deepEqual([written.ended, missing.get('/nowhere')], [false, undefined]);
  });
});

describe('the one capped body reader', () => {
  test('reads a body whole within the cap', async () => {
    const body = await readCapped(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), '4', 4);
    assert.deepEqual([Buffer.from(body.bytes).toString(), body.tooLarge], ['abcd', false]);
  });

  test('a body declared larger than the cap is too large, and not read at all', async () => {
    let read = false;
    const source = Readable.from(
      (function* () {
        read = true;
        yield Buffer.from('x');
      })(),
    );
    const body = await readCapped(source, '5', 4);
    assert.deepEqual([body.bytes.length, body.tooLarge, read], [0, true, false]);
  });

  test('past the cap it keeps one byte more, and leaves the source undestroyed for the refusal', async () => {
    const source = Readable.from([Buffer.from('abc'), Buffer.from('def'), Buffer.from('ghi')]);
    const body = await readCapped(source, undefined, 4);
    assert.deepEqual([Buffer.from(body.bytes).toString(), body.tooLarge, source.destroyed], ['abcde', true, false]);
  });
});
