import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { seededRandom } from '../support/random.ts';

/**
 * At least 10,000 generated requests against every path and method, of
 * every kind of bad input: none may answer 5xx or stop the server, and its
 * memory stays under MEMORY_BOUND_MIB.
 */
const REQUESTS = 10_000;
const CONCURRENCY = 16;
/** The server's resident memory may not pass this during or after the storm. */
const MEMORY_BOUND_MIB = 400;

after(dropDatabases);

const PATHS = [
  '/api/comments',
  '/api/votes',
  '/api/topic-requests',
  '/api/bug-reports',
  '/api/city-submissions',
  '/api/articles',
  '/api/city-search',
  '/api/agent/identity',
  '/api/nope',
  '/',
  '/fr/answers',
  '/threads/the-price-of-a-beer',
  '/articles/the-price-of-a-beer',
  '/llms.txt',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];

/** JSON nested `depth` levels deep, written out: deeper than any stack a recursive writer would allow. */
function nested(depth: number): string {
  return `${'{"a":['.repeat(depth)}"deep"${']}'.repeat(depth)}`;
}

/** One body of a kind of bad input, as bytes. */
function badBody(next: () => number): Buffer {
  const valid = { articleSlug: 'the-price-of-a-beer', body: 'Hello', value: 1, requestTitle: 'Night trains', description: 'Broken' };
  const kinds: (() => Buffer | string)[] = [
    () => JSON.stringify(valid).slice(0, Math.floor(next() * 40)),
    () => JSON.stringify({ ...valid, value: 'up', body: 42, articleSlug: ['x'] }),
    () => JSON.stringify({ ...valid, body: 'x'.repeat(1 + Math.floor(next() * 20_000)) }),
    () => nested(1 + Math.floor(next() * 5000)),
    () =>
      '{"__proto__": {"admin": true}, "constructor": {"prototype": {"polluted": 1}}, "body": "x", "articleSlug": "the-price-of-a-beer"}',
    () => Buffer.from([0x7b, 0x22, 0x62, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d]),
    () => Array.from({ length: Math.floor(next() * 200) }, () => String.fromCharCode(Math.floor(next() * 256))).join(''),
    () => JSON.stringify([valid, valid]),
    () => 'null',
    () => JSON.stringify({ ...valid, parentId: { $gt: '' }, commentId: 1e308, netPay: -0, rent: Number.NaN }),
    // Text a store cannot keep (PostgreSQL refuses NUL) or that shows nothing.
    () => JSON.stringify({ ...valid, body: 'a\u0000b', requestTitle: '\u200b\u200c\u200d', description: 'x\u001b[2J', details: '\u202e' }),
  ];
  const body = kinds[Math.floor(next() * kinds.length)]?.() ?? '';
  return typeof body === 'string' ? Buffer.from(body) : body;
}

/** Odd and repeated headers, and a query string of up to 64 KiB. */
function badRequest(next: () => number): { method: string; path: string; headers: Record<string, string | string[]>; body: Buffer | null } {
  const method = METHODS[Math.floor(next() * METHODS.length)] ?? 'GET';
  const path = PATHS[Math.floor(next() * PATHS.length)] ?? '/';
  const query = next() < 0.1 ? `?q=${'z'.repeat(Math.floor(next() * 64 * 1024))}` : next() < 0.3 ? '?slug=%ZZ&lang[]=x&q=%00' : '';
  const headers: Record<string, string | string[]> = {
    'X-Forwarded-For': `198.51.100.${Math.floor(next() * 250)}`,
  };
  // The prepared site's own origin (its SITE_URL) most of the time, so that requests reach the operations.
  if (next() < 0.7) headers['Origin'] = next() < 0.8 ? 'http://localhost:4321' : 'https://evil.example';
  if (next() < 0.7)
    headers['Content-Type'] = next() < 0.8 ? 'application/json' : next() < 0.5 ? 'text/plain' : 'application/json; charset=bogus';
  if (next() < 0.1) headers['Accept'] = ['text/markdown;q=2', 'text/html;q=abc', '*/*'];
  if (next() < 0.1) headers['If-None-Match'] = '"x", W/"y", *';
  if (next() < 0.1) headers['Accept-Encoding'] = 'br;q=nope, gzip;q=-1, identity;q=0';
  if (next() < 0.05) headers['Cookie'] = 'a'.repeat(4000);
  const body = method === 'GET' || method === 'HEAD' ? null : badBody(next);
  return { method, path: `${path}${query}`, headers, body };
}

function send(base: string, { method, path, headers, body }: ReturnType<typeof badRequest>, absurdLength: boolean): Promise<number> {
  return new Promise((resolve) => {
    const framed: Record<string, string | string[]> = { ...headers };
    if (body) framed['Content-Length'] = absurdLength ? '99999999999999' : String(body.length);
    const req = httpRequest(`${base}${path}`, { method, headers: framed }, (res) => {
      res.resume();
      res.on('end', () => {
        resolve(res.statusCode ?? 0);
      });
    });
    // A refused body (absurd length, header too large) may be cut short by the server: that is an answer too.
    req.on('error', () => {
      resolve(-1);
    });
    if (body && !absurdLength) req.end(body);
    else req.end();
  });
}

async function residentMiB(site: RunningSite): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${site.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Request parts a client chooses, each as long as Node lets a head be (16 KiB),
 * made of one character repeated: the shapes that make a careless regex or
 * loop cost the square of their length.
 */
const LONG = 16_000;
const COSTLY: { path: string; headers?: Record<string, string> }[] = [
  { path: `/api/${'/'.repeat(LONG)}` },
  { path: `/${'/'.repeat(LONG)}` },
  { path: `/articles/x${'/'.repeat(LONG)}` },
  { path: `/threads/the-price-of-a-beer${'/'.repeat(LONG)}a` },
  { path: `/${'.'.repeat(LONG)}` },
  { path: `/api/articles?${'&'.repeat(LONG)}` },
  { path: `/api/city-search?q=${'a'.repeat(LONG)}` },
  { path: `/api/city-search?q=${'%20'.repeat(LONG / 3)}` },
  { path: `/api/articles?slug=${'-'.repeat(LONG)}` },
  { path: '/', headers: { Accept: `text/markdown;${';'.repeat(LONG)}` } },
  { path: '/', headers: { Accept: ','.repeat(LONG) } },
  { path: '/api/votes?slug=the-price-of-a-beer', headers: { 'X-Forwarded-For': ','.repeat(LONG) } },
  { path: '/api/votes?slug=the-price-of-a-beer', headers: { 'X-Forwarded-For': `[${':'.repeat(LONG)}` } },
  { path: '/llms.txt', headers: { 'If-None-Match': 'W/'.repeat(LONG / 2) } },
  { path: '/llms.txt', headers: { 'Accept-Encoding': ' '.repeat(LONG) } },
];

/** Milliseconds each of `count` requests for a small static file took, one after the other. */
async function latencies(base: string, count: number, until: () => boolean = () => false): Promise<number[]> {
  const taken: number[] = [];
  for (let index = 0; index < count && !until(); index += 1) {
    const started = performance.now();
    const answer = await fetch(`${base}/favicon.svg`);
    await answer.arrayBuffer();
    taken.push(performance.now() - started);
  }
  return taken;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

/**
 * Half of a reader's requests answered slower than this means others'
 * requests held it up rather than took their turn: six costly requests in
 * turn are a few milliseconds each, and one quadratic one held every reader
 * for seconds.
 */
const HELD_UP_MS = 200;

for (const store of ['embedded', 'PostgreSQL'] as const) {
  describe(`on the ${store} store`, () => {
    let site: RunningSite;
    before(async () => {
      const env: Record<string, string> = { TRUST_PROXY: '1' };
      if (store === 'PostgreSQL') env['DATABASE_URL'] = await freshDatabase('bad_input');
      site = await startSite(PREPARED_SITE, env);
    });
    after(async () => {
      await site.stop();
    });

    test(`${REQUESTS} generated bad requests: no 5xx, the server stays up, its memory under ${MEMORY_BOUND_MIB} MiB`, async () => {
      const next = seededRandom(2026);
      const statuses = new Map<number, number>();
      let peak = 0;
      let sent = 0;
      const worker = async () => {
        while (sent < REQUESTS) {
          sent += 1;
          const status = await send(site.url, badRequest(next), next() < 0.02);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (sent % 1000 === 0) peak = Math.max(peak, await residentMiB(site));
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      peak = Math.max(peak, await residentMiB(site));
      const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
      console.log(
        `bad input (${store}): ${sent} requests, answers by status ${JSON.stringify(Object.fromEntries(statuses))}, 5xx ${fiveHundreds}, peak memory ${peak.toFixed(0)} MiB`,
      );
      assert.equal(fiveHundreds, 0, site.output().slice(-2000));
      assert.ok(peak < MEMORY_BOUND_MIB, `peak memory ${peak} MiB`);
      const alive = await fetch(`${site.url}/api/articles`);
      assert.equal(alive.status, 200, 'the server still answers');
    });

    test('long runs of one character in paths, queries and headers cost no more than their length: other readers are served meanwhile', async () => {
      const before = await latencies(site.url, 100);
      let attacks = 0;
      const statuses = new Map<number, number>();
      let attacking = true;
      const attacker = async (offset: number) => {
        for (let index = offset; attacking; index += 1) {
          const costly = COSTLY[index % COSTLY.length] ?? { path: '/' };
          const status = await send(site.url, { method: 'GET', path: costly.path, headers: costly.headers ?? {}, body: null }, false);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          attacks += 1;
        }
      };
      // Six at once, each set of requests about 100 KB: what held every reader for seconds.
      const attackers = Array.from({ length: 6 }, (_, offset) => attacker(offset));
      const deadline = Date.now() + 5000;
      const during = await latencies(site.url, 10_000, () => Date.now() > deadline);
      attacking = false;
      await Promise.all(attackers);
      const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
      console.log(
        `costly input (${store}): ${attacks} requests (statuses ${JSON.stringify(Object.fromEntries(statuses))}); a small file's latency ` +
          `before p50 ${percentile(before, 0.5).toFixed(1)} ms, p99 ${percentile(before, 0.99).toFixed(1)} ms; ` +
          `meanwhile ${during.length} requests, p50 ${percentile(during, 0.5).toFixed(1)} ms, p99 ${percentile(during, 0.99).toFixed(1)} ms, ` +
          `slowest ${Math.max(...during).toFixed(1)} ms`,
      );
      assert.equal(fiveHundreds, 0, site.output().slice(-2000));
      assert.ok(attacks >= COSTLY.length, `every shape was sent (${attacks})`);
      const median = percentile(during, 0.5);
      assert.ok(median < HELD_UP_MS, `half the reader's requests waited ${median.toFixed(0)} ms or more behind the costly requests`);
    });
  });
}
