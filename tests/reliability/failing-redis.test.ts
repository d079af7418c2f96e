import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request } from '../support/http.ts';
import { ownRedis, type OwnRedis } from '../support/redis-server.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress, post } from '../support/writes.ts';

/**
 * Redis going away under the site and coming back: a Redis server of the
 * test's own, on a free port (the machine's shared one is never stopped).
 */
let site: RunningSite;
let redis: OwnRedis;

before(async () => {
  redis = await ownRedis();
  await redis.start();
  site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', REDIS_URL: redis.url });
});
after(async () => {
  await site.stop();
  await redis.stop();
});

const topic = () => ({ requestTitle: `Night trains ${Math.random()}` });

/** Polls a write until it answers `status`, within a deadline: recovery is waited for, never slept on. */
async function writesResponse(status: number, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = 0;
  while (Date.now() < deadline) {
    last = (await post(site.url, '/api/topic-requests', topic(), newReaderAddress())).status;
    if (last === status) return last;
    await new Promise((done) => setTimeout(done, 100));
  }
  return last;
}

test('Redis stopped: writes answer 503 while reads go on; back: writes recover without a restart', async () => {
  assert.equal((await post(site.url, '/api/topic-requests', topic(), newReaderAddress())).status, 200, 'with Redis up');
  await redis.stop();
  const refused = await post(site.url, '/api/topic-requests', topic(), newReaderAddress());
  assert.equal(refused.status, 503);
  assert.equal(typeof refused.json()['requestId'], 'string');
  for (const path of ['/api/articles', '/articles/the-price-of-a-beer', '/api/city-search?q=lyon', '/answers']) {
    assert.equal((await request(`${site.url}${path}`)).status, 200, `${path} is read while Redis is down`);
  }
  await redis.start();
  assert.equal(await writesResponse(200), 200, 'writes recover once Redis is back');
  console.log('failing dependencies: Redis stopped, writes 503 and reads 200; Redis back, writes 200 again without a restart');
});
