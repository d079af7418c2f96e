import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { memoryQuotas, QuotasUnavailable, type Quotas } from '../../src/server/quotas/quotas.ts';
import { redisQuotas } from '../../src/server/quotas/redis-quotas.ts';
import { RedisWindowLog } from '../../src/server/quotas/redis-window-log.ts';
import { MemoryWindowLog, type WindowLog } from '../../src/server/quotas/window-log.ts';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const redis = new Redis(REDIS_URL, { lazyConnect: true });
after(() => {
  redis.disconnect();
});

/** A clock the test moves by hand. */
function fakeClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const logs: Record<string, (now: () => number) => WindowLog> = {
  memory: (now) => new MemoryWindowLog(now),
  redis: (now) => new RedisWindowLog(redis, now, `test:${randomUUID()}:`),
};

for (const [kind, makeLog] of Object.entries(logs)) {
  describe(`the sliding window (${kind})`, () => {
    test('the q-th write in the window’s last second is admitted, the next one only once the first slides out', async () => {
      const clock = fakeClock();
      const log = makeLog(clock.now);
      // 5 writes a day: the first at 0 s, four more at the last second of the window.
      assert.equal((await log.reserve('test', 'reader', 5, 86_400)).admitted, true);
      clock.advance(86_399_000);
      for (let i = 0; i < 4; i++) assert.equal((await log.reserve('test', 'reader', 5, 86_400)).admitted, true, `write ${i + 2}`);
      const refused = await log.reserve('test', 'reader', 5, 86_400);
      assert.deepEqual(refused, { admitted: false, retryAfterSeconds: 1 });
      clock.advance(999);
      assert.equal((await log.reserve('test', 'reader', 5, 86_400)).admitted, false, 'still inside the window by one millisecond');
      clock.advance(1);
      const admitted = await log.reserve('test', 'reader', 5, 86_400);
      assert.ok(admitted.admitted, 'the first write slid out');
      assert.equal(admitted.reservation.remaining, 0, 'the four writes of the last second and this one fill the window');
    });

    test('no fixed window: writes spread over a window boundary still count together', async () => {
      const clock = fakeClock(Date.parse('2026-01-01T23:59:00Z'));
      const log = makeLog(clock.now);
      for (let i = 0; i < 3; i++) assert.equal((await log.reserve('test', 'r', 3, 3600)).admitted, true);
      clock.advance(120_000); // past midnight: a fixed daily window would start over here
      const refused = await log.reserve('test', 'r', 3, 3600);
      assert.ok(!refused.admitted);
      assert.equal(refused.retryAfterSeconds, 3600 - 120);
    });

    test('a released reservation gives its slot back; readers do not share slots', async () => {
      const clock = fakeClock();
      const log = makeLog(clock.now);
      const first = await log.reserve('test', 'a', 1, 60);
      assert.ok(first.admitted);
      assert.equal((await log.reserve('test', 'a', 1, 60)).admitted, false);
      assert.equal((await log.reserve('test', 'b', 1, 60)).admitted, true);
      await first.reservation.release();
      assert.equal((await log.reserve('test', 'a', 1, 60)).admitted, true);
    });

    test('concurrent reservations never overshoot the quota', async () => {
      const log = makeLog(Date.now);
      const results = await Promise.all(Array.from({ length: 50 }, () => log.reserve('test', 'busy', 5, 86_400)));
      assert.equal(results.filter((result) => result.admitted).length, 5);
    });
  });
}

test('the memory log forgets a reader once their last write is out of its scope’s own window, a minute for votes', async () => {
  const clock = fakeClock();
  const log = new MemoryWindowLog(clock.now);
  await log.reserve('votes', 'voter', 60, 60);
  await log.reserve('comments', 'writer', 100, 86_400);
  await log.reserve('comments', 'voter', 100, 86_400);
  clock.advance(60_001);
  log.sweep();
  assert.equal(log.heldReaders, 2, 'the vote left its window; both comments are still in theirs');
  const next = await log.reserve('comments', 'voter', 2, 86_400);
  assert.ok(next.admitted);
  assert.equal(next.reservation.remaining, 0, 'the voter’s comment is still counted');
  clock.advance(86_400_000);
  log.sweep();
  assert.equal(log.heldReaders, 0);
});

const quotaKinds: Record<string, (now: () => number) => Quotas> = {
  memory: (now) => memoryQuotas(now),
  redis: (now) => redisQuotas(REDIS_URL, now),
};
for (const [kind, makeQuotas] of Object.entries(quotaKinds)) {
  test(`the 100th comment in five minutes bans the reader for 48 hours (${kind})`, async () => {
    const clock = fakeClock(Date.now());
    const quotas = makeQuotas(clock.now);
    const reader = `reader-${randomUUID()}`;
    try {
      for (let i = 0; i < 99; i++) {
        await quotas.countComment(reader);
        clock.advance(2000);
      }
      assert.equal(await quotas.banRemaining(reader), 0, '99 comments do not ban');
      await quotas.countComment(reader);
      const remaining = await quotas.banRemaining(reader);
      assert.ok(remaining > 48 * 3600 - 5 && remaining <= 48 * 3600, `${remaining}`);
    } finally {
      await quotas.close();
    }
  });
}

test('comments spread wider than five minutes never ban', async () => {
  const clock = fakeClock();
  const quotas = memoryQuotas(clock.now);
  for (let i = 0; i < 150; i++) {
    await quotas.countComment('patient');
    clock.advance(3100);
  }
  assert.equal(await quotas.banRemaining('patient'), 0);
  await quotas.close();
});

test('the ban expires on its own after 48 hours (memory, fake timers)', async (t) => {
  t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.parse('2026-01-01T00:00:00Z') });
  const quotas = memoryQuotas(Date.now);
  for (let i = 0; i < 100; i++) await quotas.countComment('loud');
  assert.ok((await quotas.banRemaining('loud')) > 0);
  t.mock.timers.tick(48 * 3600 * 1000 - 1000);
  assert.ok((await quotas.banRemaining('loud')) > 0, 'one second before the end');
  t.mock.timers.tick(2000);
  assert.equal(await quotas.banRemaining('loud'), 0);
  await quotas.close();
});

test('Redis unreachable: a quota check fails fast as QuotasUnavailable, never passes', async () => {
  const quotas = redisQuotas('redis://127.0.0.1:9');
  const started = Date.now();
  await assert.rejects(quotas.reserve('votes', 'anyone'), QuotasUnavailable);
  await assert.rejects(quotas.banRemaining('anyone'), QuotasUnavailable);
  assert.ok(Date.now() - started < 5000, 'bounded wait');
  await quotas.close();
});
