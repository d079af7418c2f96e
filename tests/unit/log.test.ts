import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../src/server/observability/log.ts';
import { settingsInEffect } from '../../src/server/settings/environment.ts';

const TIME = new Date('2026-03-14T09:26:53.589Z');
const nextTurn = () => new Promise((done) => setImmediate(done));

test('the level sets the least severe line written; an announcement is written at every level; silent writes nothing', async () => {
  const writes: string[] = [];
  const logger = createLogger({ level: 'warn', format: 'json', write: (text) => writes.push(text), now: () => TIME.getTime() });
  logger.debug('d');
  logger.info('i');
  logger.warn('w', { setting: 'TRUST_PROXY' });
  logger.announce('Serving', { port: 4321 });
  await nextTurn();
  assert.deepEqual(
    writes
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown),
    [
      { time: TIME.toISOString(), level: 'warn', msg: 'w', setting: 'TRUST_PROXY' },
      { time: TIME.toISOString(), level: 'info', msg: 'Serving', port: 4321 },
    ],
  );
  assert.equal(logger.enabled('info'), false);
  assert.equal(logger.enabled('error'), true);
  const silent: string[] = [];
  const quiet = createLogger({ level: 'silent', format: 'json', write: (text) => silent.push(text) });
  quiet.error('e');
  quiet.info('i');
  quiet.announce('Serving');
  await nextTurn();
  assert.deepEqual(silent, []);
});

test('lines of one turn leave in one write; an error leaves at once, after what waited, with its stack', async () => {
  const writes: string[] = [];
  const logger = createLogger({ level: 'info', format: 'json', write: (text) => writes.push(text), now: () => TIME.getTime() });
  logger.info('a');
  logger.info('b');
  assert.equal(writes.length, 0, 'nothing written synchronously');
  await nextTurn();
  assert.equal(writes.length, 1);
  logger.info('c');
  logger.error('boom', { requestId: 'r1' }, new Error('the cause'));
  assert.equal(writes.length, 2, 'the error is written at once');
  const lines = (writes[1] ?? '')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(
    lines.map((line) => line['msg']),
    ['c', 'boom'],
  );
  const [, failure = {}] = lines;
  assert.equal(failure['requestId'], 'r1');
  assert.match(String(failure['error']), /^Error: the cause\n\s+at /);
});

test('pretty: a line for people, time, level, message and fields', async () => {
  const writes: string[] = [];
  const logger = createLogger({ level: 'debug', format: 'pretty', write: (text) => writes.push(text), now: () => TIME.getTime() });
  logger.info('request', { method: 'GET', path: '/a b', status: 200, operation: undefined });
  await nextTurn();
  assert.equal(writes.join(''), '09:26:53.589 INFO: request method=GET path="/a b" status=200\n');
});

test('the settings in effect hide the secrets and the passwords in connection URLs', () => {
  const saved = { ...process.env };
  try {
    Object.assign(process.env, {
      DATABASE_URL: 'postgres://longhand:db-password@db.internal:5432/longhand?sslmode=require&password=other-password',
      REDIS_URL: 'redis://:redis-password@cache.internal:6379',
      IP_HASH_SALT: 'the-salt',
      CAPTCHA_SECRET: 'the-captcha-secret',
      CAPTCHA_SITE_KEY: 'the-public-site-key',
    });
    const settings = settingsInEffect();
    const text = JSON.stringify(settings);
    for (const secret of ['db-password', 'other-password', 'redis-password', 'the-salt', 'the-captcha-secret'])
      assert.ok(!text.includes(secret), secret);
    assert.equal(settings['store'], 'postgres://longhand:***@db.internal:5432/longhand?sslmode=require&password=***');
    assert.equal(settings['REDIS_URL'], 'redis://:***@cache.internal:6379');
    assert.equal(settings['CAPTCHA_SITE_KEY'], 'the-public-site-key', 'a site key is public');
  } finally {
    process.env = saved;
  }
});

test('an access line reads as the generic line would, an empty operation left out; a path is escaped', async () => {
  const writes: string[] = [];
  const logger = createLogger({ level: 'info', format: 'json', write: (text) => writes.push(text), now: () => TIME.getTime() });
  const fields = { requestId: 'r1', method: 'GET', kind: 'page', path: '/a"b\\c\n', status: 404, ms: 1.25, bytes: 10 };
  logger.request({ ...fields, operation: '' });
  logger.request({ ...fields, kind: 'api', operation: 'castVote' });
  await nextTurn();
  const [page, api] = writes
    .join('')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
  assert.deepEqual(page, { time: TIME.toISOString(), level: 'info', msg: 'request', ...fields });
  assert.deepEqual(api, { time: TIME.toISOString(), level: 'info', msg: 'request', ...fields, kind: 'api', operation: 'castVote' });
  const quiet = createLogger({ level: 'warn', format: 'json', write: (text) => writes.push(text) });
  quiet.request({ ...fields, operation: '' });
  await nextTurn();
  assert.equal(writes.length, 1, 'no access line below info');
});
