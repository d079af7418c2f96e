import assert from 'node:assert/strict';
import { test } from 'node:test';
import { health } from '../../src/server/health/health.ts';

const ready = (checks: ReturnType<typeof health>) => checks.probes.get('/readyz')?.() ?? Promise.reject(new Error('no /readyz'));
const never = () => new Promise<void>(() => undefined);

test('readyz: 200 when every dependency answers; 503 naming, in order, those that fail or do not answer in time', async () => {
  assert.deepEqual(await ready(health([{ name: 'store', ping: () => Promise.resolve() }])), { status: 200, body: '{"status":"ready"}' });
  const started = Date.now();
  const answer = await ready(
    health(
      [
        { name: 'store', ping: never },
        { name: 'redis', ping: () => Promise.reject(new Error('ECONNREFUSED 127.0.0.1:6379')) },
      ],
      50,
    ),
  );
  assert.ok(Date.now() - started < 1000, 'a ping that never answers is cut at the timeout');
  assert.equal(answer.status, 503);
  assert.deepEqual(JSON.parse(answer.body), { status: 'unavailable', failed: ['store', 'redis'] });
  assert.doesNotMatch(answer.body, /127\.0\.0\.1|ECONNREFUSED/, 'names only, never what the error said');
});

test('readyz: polls during a check share its pings; after drain it answers 503 whatever the dependencies say', async () => {
  let pings = 0;
  const checks = health([{ name: 'store', ping: () => ((pings += 1), new Promise<void>((done) => setTimeout(done, 20))) }]);
  const answers = await Promise.all([ready(checks), ready(checks), ready(checks)]);
  assert.equal(pings, 1);
  assert.ok(answers.every((answer) => answer.status === 200));
  assert.equal((await checks.probes.get('/healthz')?.())?.status, 200);
  checks.drain();
  assert.deepEqual(await ready(checks), { status: 503, body: '{"status":"draining"}' });
  assert.equal((await checks.probes.get('/healthz')?.())?.status, 200, 'live while draining');
});
