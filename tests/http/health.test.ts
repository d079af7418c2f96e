import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, test } from 'node:test';
import { request, type Answer } from '../support/http.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { ownRedis } from '../support/redis-server.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';

/**
 * `/healthz` and `/readyz` on a started server: what they answer, that no
 * page shadows them, and that readiness follows the store, Redis and a
 * graceful stop.
 */
after(dropDatabases);

/** Polls `path` until its status is `status`, within `timeoutMs`; resolves with the last answer and how long it took. */
async function answersWithin(site: RunningSite, path: string, status: number, timeoutMs: number): Promise<{ answer: Answer; ms: number }> {
  const started = Date.now();
  let answer = await request(`${site.url}${path}`);
  while (answer.status !== status && Date.now() - started < timeoutMs) {
    await new Promise((done) => setTimeout(done, 50));
    answer = await request(`${site.url}${path}`);
  }
  return { answer, ms: Date.now() - started };
}

test('healthz and readyz answer 200 JSON, never kept, before any page route; robots and the sitemap leave them out', async () => {
  const site = await startSite(PREPARED_SITE);
  try {
    for (const path of ['/healthz', '/readyz', '/readyz?verbose=1']) {
      const answer = await request(`${site.url}${path}`);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['cache-control'], 'no-store', path);
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8', path);
      assert.match(String(answer.json()['status']), /^(ok|ready)$/, path);
      assert.equal(answer.headers['x-content-type-options'], 'nosniff', 'the security headers too');
    }
    assert.equal((await request(`${site.url}/readyz`, { method: 'HEAD' })).body.length, 0);
    const posted = await request(`${site.url}/healthz`, { method: 'POST', body: '{}' });
    assert.equal(posted.status, 405);
    assert.equal(posted.headers['allow'], 'GET, HEAD');
    // Under a language prefix or as a twin they are ordinary (missing) pages.
    assert.equal((await request(`${site.url}/fr/healthz`)).status, 404);
    for (const document of ['/robots.txt', '/sitemap.xml']) {
      const text = (await request(`${site.url}${document}`)).text;
      assert.doesNotMatch(text, /healthz|readyz/, document);
    }
  } finally {
    await site.stop();
  }
});

test('PostgreSQL cut: readyz answers 503 naming the store within 2 s, and 200 once it is back', async () => {
  const databaseUrl = await freshDatabase('health');
  const proxy = await startTcpProxy(Number(new URL(databaseUrl).port || 5432));
  const throughProxy = new URL(databaseUrl);
  throughProxy.host = `127.0.0.1:${proxy.port}`;
  const site = await startSite(PREPARED_SITE, { DATABASE_URL: throughProxy.toString() });
  try {
    assert.equal((await request(`${site.url}/readyz`)).status, 200);
    await proxy.cut();
    const down = await answersWithin(site, '/readyz', 503, 2000);
    assert.equal(down.answer.status, 503, `readyz still ${down.answer.status} after ${down.ms} ms`);
    assert.deepEqual(down.answer.json(), { status: 'unavailable', failed: ['store'] });
    assert.equal((await request(`${site.url}/healthz`)).status, 200, 'the process still serves');
    await proxy.restore();
    const back = await answersWithin(site, '/readyz', 200, 10_000);
    assert.equal(back.answer.status, 200, 'ready again once PostgreSQL is back');
  } finally {
    await site.stop();
    await proxy.cut();
  }
});

test('Redis stopped: readyz answers 503 naming redis within 2 s, and 200 once it is back', async () => {
  const redis = await ownRedis();
  await redis.start();
  const site = await startSite(PREPARED_SITE, { REDIS_URL: redis.url });
  try {
    assert.equal((await request(`${site.url}/readyz`)).status, 200);
    await redis.stop();
    const down = await answersWithin(site, '/readyz', 503, 2000);
    assert.equal(down.answer.status, 503, `readyz still ${down.answer.status} after ${down.ms} ms`);
    assert.deepEqual(down.answer.json(), { status: 'unavailable', failed: ['redis'] });
    await redis.start();
    const back = await answersWithin(site, '/readyz', 200, 10_000);
    assert.equal(back.answer.status, 200, 'ready again once Redis is back');
  } finally {
    await site.stop();
    await redis.stop();
  }
});

test('SIGTERM: readyz turns 503 while pages are still served, and the listener closes only after the drain', async () => {
  const site = await startSite(PREPARED_SITE, { DRAIN_SECONDS: '1.5' });
  try {
    process.kill(site.pid, 'SIGTERM');
    const signalled = Date.now();
    const draining = await answersWithin(site, '/readyz', 503, 1000);
    assert.equal(draining.answer.status, 503);
    assert.deepEqual(draining.answer.json(), { status: 'draining' });
    assert.equal((await request(`${site.url}/healthz`)).status, 200, 'live while draining');
    assert.equal((await request(`${site.url}/`)).status, 200, 'pages are served while draining');
    // A new connection each time: a kept-alive one would be reset when the server closes it, which says nothing of the listener.
    const fresh = new Agent({ keepAlive: false });
    let closedAfter = 0;
    while (closedAfter === 0) {
      try {
        await request(`${site.url}/readyz`, { agent: fresh });
        await new Promise((done) => setTimeout(done, 50));
      } catch (error) {
        // Refused once the listener is closed; reset when the connection was still waiting to be accepted as it closed.
        assert.ok(['ECONNREFUSED', 'ECONNRESET'].includes((error as NodeJS.ErrnoException).code ?? ''), String(error));
        closedAfter = Date.now() - signalled;
      }
      assert.ok(Date.now() - signalled < 10_000, 'the listener closes in the end');
    }
    assert.ok(closedAfter >= 1400, `the listener closed ${closedAfter} ms after SIGTERM, before the 1.5 s drain`);
    assert.match(site.output(), /SIGTERM: draining, \/readyz answers 503; the listener closes in 1\.5 s/);
  } finally {
    await site.stop();
  }
});
