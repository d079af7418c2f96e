import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiResponse } from '../../src/server/api-frame/api-response.ts';
import { apiRequestOf } from '../../src/server/api-frame/api-request.ts';
import { refusal } from '../../src/server/api-frame/refusals.ts';
import { proxyTrust } from '../../src/server/identity/client-address.ts';
import { batchRan, counted, requestCounted, startCounting, WRITE_OUTCOMES } from '../../src/server/observability/counters.ts';
import { memoryQuotas, QuotasUnavailable, type Quotas } from '../../src/server/quotas/quotas.ts';
import { signingKeys, type Runtime } from '../../src/server/runtime/runtime.ts';
import { Batcher } from '../../src/server/store/postgres/batcher.ts';
import type { StoreEngine } from '../../src/server/store/roles.ts';
import { runWrite, type WriteOperation } from '../../src/server/writes/pipeline.ts';
import { topicRequestInput } from '../../src/server/writes/schemas.ts';

const SITE = 'https://example.org';

function request(body: unknown, origin = SITE) {
  return {
    request: apiRequestOf(
      new Request(`${SITE}/api/topic-requests`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    ),
    socketAddress: '198.51.100.7',
  };
}

function runtime({ quotas = memoryQuotas(), ownerBanned = false } = {}): Runtime {
  return {
    site: SITE,
    salt: 'salt',
    trustedProxies: proxyTrust(0),
    // Captcha on; a token is never sent to this address: only a missing one is tried here.
    captcha: { provider: 'turnstile', siteKey: 'site', secret: 'secret', verifyUrl: 'http://127.0.0.1:9/siteverify' },
    keys: signingKeys('salt'),
    formMinSeconds: 3,
    quotas,
    store: { isBanned: () => Promise.resolve(ownerBanned) } as unknown as StoreEngine,
    moderation: 'off',
  };
}

function operation({ captcha = false, refuse = false, fail = false } = {}): WriteOperation<{ requestTitle: string }> {
  return {
    quota: 'topic-requests',
    schema: topicRequestInput,
    captcha,
    prepare: () =>
      Promise.resolve(
        refuse
          ? refusal('not_found', 'No such article')
          : () => (fail ? Promise.reject(new Error('the store failed')) : Promise.resolve({ ok: true })),
      ),
  };
}

/** Every article counts as published: these writes name none. */
const published = () => true;

const outcomes = () =>
  Object.fromEntries(WRITE_OUTCOMES.map((outcome, index) => [outcome, counted.writes.get('topic-requests')?.[index] ?? 0]));

test('the pipeline counts each write once, by where it stopped', async () => {
  startCounting();
  const title = { requestTitle: 'Night trains' };
  const status = async (answer: Promise<ApiResponse>) => (await answer).status;
  assert.equal(await status(runWrite(request(title, 'https://elsewhere.example'), runtime(), operation(), published)), 403);
  assert.equal(await status(runWrite(request({ requestTitle: 'x' }), runtime(), operation(), published)), 400);
  assert.equal(await status(runWrite(request(title), runtime(), operation({ refuse: true }), published)), 404);
  const burstBanned: Quotas = { ...memoryQuotas(), banRemaining: () => Promise.resolve(60) };
  assert.equal(await status(runWrite(request(title), runtime({ quotas: burstBanned }), operation(), published)), 429);
  assert.equal(await status(runWrite(request(title), runtime({ ownerBanned: true }), operation(), published)), 429);
  assert.equal(await status(runWrite(request(title), runtime(), operation({ captcha: true }), published)), 400);
  assert.equal(await status(runWrite(request({ ...title, honeypot: 'filled' }), runtime(), operation({ captcha: true }), published)), 400);
  const quotas = memoryQuotas();
  for (let n = 0; n < 6; n += 1) await runWrite(request(title), runtime({ quotas }), operation(), published); // 5 a day
  const unreachable: Quotas = { ...memoryQuotas(), reserve: () => Promise.reject(new QuotasUnavailable('down')) };
  assert.equal(await status(runWrite(request(title), runtime({ quotas: unreachable }), operation(), published)), 503);
  await assert.rejects(runWrite(request(title), runtime(), operation({ fail: true }), published), /the store failed/);
  assert.deepEqual(outcomes(), { stored: 5, quota: 1, ban: 2, captcha: 1, spam: 1, validation: 2, origin: 1, failed: 2 });
});

test('requests are counted by route and status class; batches by size and duration', async () => {
  requestCounted('page', '', 200, 0.003);
  requestCounted('page', '', 404, 0.2);
  requestCounted('api', 'castVote', 429, 0.0004);
  const page = counted.routes.get('page');
  assert.deepEqual([...(page?.statuses ?? [])], [0, 1, 0, 1, 0]);
  assert.equal(
    page?.latency.counts.reduce((sum, count) => sum + count, 0),
    2,
  );
  assert.equal(counted.routes.get('castVote')?.statuses[3], 1);
  const batcher = new Batcher<number, number>((items) => Promise.resolve(items), { maxItems: 10, concurrency: 1, name: 'votes' });
  await Promise.all([1, 2, 3].map((item) => batcher.submit(item)));
  const votes = counted.batches.get('votes') ?? assert.fail('the votes batches are counted');
  assert.equal(votes.sizes.sum, 3, 'three calls in one batch');
  assert.equal(
    votes.seconds.counts.reduce((sum, count) => sum + count, 0),
    1,
  );
  batchRan('votes', 100, 0.01);
  assert.equal(votes.sizes.counts[votes.sizes.counts.length - 2], 1, 'a batch of 100 in the bucket up to 100');
});
