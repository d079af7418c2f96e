import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { chooseEncoding, encodeBody } from '../../src/server/front/encoding.ts';
import { createFrontServer } from '../../src/server/front/server.ts';
import { HotBodies } from '../../src/server/front/hot-bodies.ts';
import { ResponseCache } from '../../src/server/front/response-cache.ts';
import { notBeforeDates } from '../../src/server/front/schedule.ts';
import { ApiResponse } from '../../src/server/api-frame/api-response.ts';
import { THREAD_SLOT } from '../../src/server/http/site-paths.ts';

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

  test('holds at most its bytes: the least recently used answers go first, and one too large is not kept', async () => {
    const page = (text: string) => new Response(text, { headers: { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=60' } });
    const cache = new ResponseCache({ maxEntries: 10, maxBytes: 2500 });
    await cache.store('/a', page('a'.repeat(1000)));
    await cache.store('/b', page('b'.repeat(1000)));
    assert.ok(cache.get('/a'), 'used again: now the most recent');
    await cache.store('/c', page('c'.repeat(1000)));
    assert.equal(cache.get('/b'), undefined, 'the least recently used went');
    assert.ok(cache.get('/a') && cache.get('/c'));
    await cache.store('/huge', page('h'.repeat(3000)));
    assert.equal(cache.get('/huge'), undefined);
    assert.ok(cache.get('/a') && cache.get('/c'), 'and it pushed nothing out');
  });

  test('an answer shared under many addresses (the not-found page) holds no bytes of the budget', async () => {
    const cache = new ResponseCache({ maxEntries: 100, maxBytes: 2500 });
    await cache.store(
      '/thread',
      new Response('t'.repeat(1000), { headers: { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=60' } }),
    );
    const notFound = { status: 404, headers: {}, etag: '', bodies: { identity: Buffer.alloc(2000) } };
    for (let index = 0; index < 50; index += 1) cache.keep(`/missing-${index}`, notFound, 60);
    assert.ok(cache.get('/missing-49') && cache.get('/missing-0'));
    assert.ok(cache.get('/thread'), 'fifty addresses of one shared page pushed no render out');
  });

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

describe('the bodies of built files held in memory', () => {
  const body = (size: number) => Buffer.alloc(size, 'x');

  test('a body is held from its second read, and a walk over many read once holds nothing', () => {
    const hot = new HotBodies(10_000);
    for (let index = 0; index < 100; index += 1) hot.offer(`/once-${index}`, body(500), 0);
    assert.equal(hot.bytes, 0);
    hot.offer('/often', body(500), 0);
    assert.equal(hot.get('/often'), undefined);
    hot.offer('/often', body(500), 0);
    assert.equal(hot.get('/often')?.body.length, 500);
    assert.equal(hot.bytes, 500);
  });

  test('never holds more than its budget: the least recently used goes first, one larger than the budget never', () => {
    const hot = new HotBodies(2500);
    const twice = (path: string, size: number) => {
      hot.offer(path, body(size), 0);
      hot.offer(path, body(size), 0);
      assert.ok(hot.bytes <= 2500, `${hot.bytes} bytes held`);
    };
    twice('/a', 1000);
    twice('/b', 1000);
    assert.ok(hot.get('/a'), 'used again: now the most recent');
    twice('/c', 1000);
    assert.equal(hot.get('/b'), undefined, 'the least recently used went');
    assert.ok(hot.get('/a') && hot.get('/c'));
    twice('/huge', 3000);
    assert.equal(hot.get('/huge'), undefined);
    assert.ok(hot.get('/a') && hot.get('/c'), 'and it pushed nothing out');
    for (let index = 0; index < 200; index += 1) twice(`/many-${index}`, 100 + index);
    hot.clear();
    assert.equal(hot.bytes, 0);
  });
});

describe('the front server', () => {
  test("a missing page is answered with the site's 404 page, rendered once for its address", async (t) => {
    const clientDir = await mkdtemp(join(tmpdir(), 'front-'));
    t.after(() => rm(clientDir, { recursive: true, force: true }));
    await mkdir(join(clientDir, 'not-found'), { recursive: true });
    await writeFile(join(clientDir, 'not-found', 'index.html'), '<h1>Page not found</h1>');
    let renders = 0;
    const server = await createFrontServer({
      app: {
        match: () => undefined,
        render: () => {
          renders += 1;
          return Promise.resolve(new Response('Astro 404', { status: 404, headers: { 'Content-Type': 'text/html' } }));
        },
      },
      api: () => Promise.reject(new Error('no API here')),
      clientDir,
      site: 'http://localhost:4321',
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    t.after(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;
    for (const path of ['/no-such-page', '/no-such-page', '/another-missing-page']) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      assert.equal(response.status, 404);
      assert.equal(await response.text(), '<h1>Page not found</h1>');
    }
    assert.equal(renders, 2, 'the second request for the same address is answered from memory');
  });

  test('made-up query parameters neither render again nor reach the page or the API, and misses push no render out', async (t) => {
    const clientDir = await mkdtemp(join(tmpdir(), 'front-'));
    t.after(() => rm(clientDir, { recursive: true, force: true }));
    await mkdir(join(clientDir, 'not-found'), { recursive: true });
    await writeFile(join(clientDir, 'not-found', 'index.html'), '<h1>Page not found</h1>');
    const rendered: string[] = [];
    const dispatched: string[] = [];
    const server = await createFrontServer({
      app: {
        match: () => undefined,
        render: (request) => {
          const url = new URL(request.url);
          rendered.push(`${url.pathname}${url.search}`);
          const found = url.pathname.startsWith('/threads/') || url.pathname === '/answers';
          return Promise.resolve(
            new Response(found ? 'a render' : 'missing', {
              status: found ? 200 : 404,
              headers: { 'Content-Type': 'text/html', 'Cache-Control': 'public, max-age=60' },
            }),
          );
        },
      },
      api: (request) => {
        dispatched.push(`${request.url.pathname}${request.url.search}`);
        return Promise.resolve(new ApiResponse(200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=60' }, '{}'));
      },
      apiQueryParameters: (pathname) => (pathname === '/api/articles' ? ['lang', 'slug'] : []),
      clientDir,
      site: 'http://localhost:4321',
      cacheEntries: 10,
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    t.after(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;
    const statusOf = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).status;

    for (const path of ['/answers', '/answers?utm_source=x', '/answers?a=1&b=2']) assert.equal(await statusOf(path), 200);
    for (const path of ['/threads/x?page=2&junk=1', '/threads/x?junk=3&page=2', '/threads/x?page=2&page=9'])
      assert.equal(await statusOf(path), 200);
    for (const path of ['/api/articles?lang=fr&x=1', '/api/articles?x=2&lang=fr&slug=a', '/api/articles?slug=a&lang=fr'])
      assert.equal(await statusOf(path), 200);
    assert.deepEqual(rendered, ['/answers', '/threads/x?page=2']);
    assert.deepEqual(dispatched, ['/api/articles?lang=fr', '/api/articles?lang=fr&slug=a']);

    for (let index = 0; index < 50; index += 1) assert.equal(await statusOf(`/missing-${index}`), 404);
    assert.equal(await statusOf('/threads/x?page=2&more=junk'), 200);
    assert.equal(
      rendered.filter((path) => path.startsWith('/threads/')).length,
      1,
      'fifty misses pushed the thread render out of ten places',
    );
  });
});

describe('an article page with its thread', () => {
  /** A front server over built article pages that take a thread, its renders by `render`; reads an article's page. */
  async function articlesServer(
    t: TestContext,
    slugs: readonly string[],
    render: (pathname: string) => Promise<string>,
    revision: () => string,
    cacheEntries?: number,
  ): Promise<(slug: string) => Promise<string>> {
    const clientDir = await mkdtemp(join(tmpdir(), 'front-'));
    t.after(() => rm(clientDir, { recursive: true, force: true }));
    for (const slug of slugs) {
      await mkdir(join(clientDir, 'articles', slug), { recursive: true });
      await writeFile(join(clientDir, 'articles', slug, 'index.html'), `<h1>${slug}</h1>${THREAD_SLOT}<footer></footer>`);
    }
    const server = await createFrontServer({
      app: {
        match: () => undefined,
        render: async (request) => {
          const { pathname } = new URL(request.url);
          const headers = { 'Content-Type': 'text/html', 'X-Revision-Topic': `thread:${pathname}`, 'X-Revision': revision() };
          return new Response(await render(pathname), { headers });
        },
      },
      api: () => Promise.reject(new Error('no API here')),
      revisionOf: () => Promise.resolve(revision()),
      clientDir,
      site: 'http://localhost:4321',
      ...(cacheEntries === undefined ? {} : { cacheEntries }),
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    t.after(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;
    return async (slug) => (await fetch(`http://127.0.0.1:${port}/articles/${slug}`)).text();
  }

  test('kept from its second read until the thread’s revision changes; a walk over pages read once keeps nothing', async (t) => {
    let revision = '1';
    const rendered: string[] = [];
    // Room for fewer pages than the walk reads: kept on first read, they would push the page read often out.
    const read = await articlesServer(
      t,
      ['read-often', ...Array.from({ length: 20 }, (_, index) => `read-once-${index}`)],
      (pathname) => {
        rendered.push(pathname);
        return Promise.resolve(`<ol>thread at ${revision}</ol>`);
      },
      () => revision,
      5,
    );

    assert.equal(await read('read-often'), '<h1>read-often</h1><ol>thread at 1</ol><footer></footer>');
    await read('read-often');
    await read('read-often');
    assert.deepEqual(rendered, ['/threads/read-often', '/threads/read-often'], 'kept from the second read');
    for (let index = 0; index < 20; index += 1) await read(`read-once-${index}`);
    rendered.length = 0;
    await read('read-often');
    assert.deepEqual(rendered, [], 'pages read once pushed nothing out');
    revision = '2';
    assert.equal(await read('read-often'), '<h1>read-often</h1><ol>thread at 2</ol><footer></footer>');
    await read('read-often');
    assert.deepEqual(rendered, ['/threads/read-often'], 'rendered once per change of the thread');
  });

  test('readers who ask at once, before it is kept, share one render', async (t) => {
    let renders = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const read = await articlesServer(
      t,
      ['busy'],
      async () => {
        renders += 1;
        await gate;
        return '<ol>the thread</ol>';
      },
      () => '1',
    );
    const pages = Array.from({ length: 10 }, () => read('busy'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    assert.deepEqual(new Set(await Promise.all(pages)), new Set(['<h1>busy</h1><ol>the thread</ol><footer></footer>']));
    assert.equal(renders, 1);
  });
});

describe('the publication schedule', () => {
  const notBefore = notBeforeDates([{ slug: 'later', date: '2099-01-01' }]);
  test("every form of a scheduled article's paths has its date, in every language; nothing else has one", () => {
    for (const path of ['/articles/later', '/articles/later/', '/articles/later.md', '/fr/articles/later', '/kab/articles/later.md'])
      assert.equal(notBefore(path), '2099-01-01', path);
    for (const path of ['/articles/other', '/en/articles/later', '/xx/articles/later', '/articles/later/index.html', '/threads/later'])
      assert.equal(notBefore(path), undefined, path);
  });
});
