import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../src/server/observability/log.ts';
import { settingsInEffect } from '../../src/server/settings/environment.ts';

const TIME = new Date('2026-03-14T09:26:53.589Z');
/** What a logger wrote, as text, and the lines it wrote in. */
function written(): { writes: Buffer[]; write: (bytes: Buffer) => void; text: () => string } {
  const writes: Buffer[] = [];
  return { writes, write: (bytes) => writes.push(bytes), text: () => Buffer.concat(writes).toString() };
}

/** Lines of a logger's writes, parsed. */
function linesOf(text: string): Record<string, unknown>[] {
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test('the level sets the least severe line written; an announcement is written at every level; silent writes nothing', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const out = written();
  const logger = createLogger({ level: 'warn', format: 'json', write: out.write, now: () => TIME.getTime() });
  logger.debug('d');
  logger.info('i');
  logger.warn('w', { setting: 'TRUST_PROXY' });
  logger.announce('Serving', { port: 4321 });
  t.mock.timers.tick(200);
  assert.deepEqual(linesOf(out.text()), [
    { time: TIME.toISOString(), level: 'warn', msg: 'w', setting: 'TRUST_PROXY' },
    { time: TIME.toISOString(), level: 'info', msg: 'Serving', port: 4321 },
  ]);
  assert.equal(logger.enabled('info'), false);
  assert.equal(logger.enabled('error'), true);
  const silent = written();
  const quiet = createLogger({ level: 'silent', format: 'json', write: silent.write });
  quiet.error('e');
  quiet.info('i');
  quiet.announce('Serving');
  t.mock.timers.tick(200);
  assert.deepEqual(silent.writes, []);
});

test('lines leave together within 200 ms of the first; an error leaves at once, after what waited, with its stack', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const out = written();
  const logger = createLogger({ level: 'info', format: 'json', write: out.write, now: () => TIME.getTime() });
  logger.info('a');
  t.mock.timers.tick(150);
  logger.info('b');
  assert.equal(out.writes.length, 0, 'nothing written before 200 ms');
  t.mock.timers.tick(50);
  assert.equal(out.writes.length, 1, 'both lines in one write, 200 ms after the first');
  assert.deepEqual(
    linesOf(out.text()).map((line) => line['msg']),
    ['a', 'b'],
  );
  logger.info('c');
  logger.error('boom', { requestId: 'r1' }, new Error('the cause'));
  assert.equal(out.writes.length, 2, 'the error is written at once');
  const lines = linesOf(out.writes[1]?.toString() ?? '');
  assert.deepEqual(
    lines.map((line) => line['msg']),
    ['c', 'boom'],
  );
  const [, failure = {}] = lines;
  assert.equal(failure['requestId'], 'r1');
  assert.match(String(failure['error']), /^Error: the cause\n\s+at /);
});

test('lines leave in blocks of 32 KiB at most, whole, and a longer line alone; every character is kept', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const out = written();
  const logger = createLogger({ level: 'info', format: 'json', write: out.write, now: () => TIME.getTime() });
  const paths = Array.from({ length: 400 }, (_, index) => `/ar/articles/${String(index)}-${'مقال'.repeat(10)}`);
  for (const path of paths)
    logger.request({ requestId: 'r', method: 'GET', kind: 'page', operation: '', path, status: 200, ms: 1, bytes: 1 });
  logger.info('long', { text: 'x'.repeat(40_000) });
  assert.ok(out.writes.length >= 3, `${String(out.writes.length)} writes of 400 lines and a long one, before any timer`);
  for (const bytes of out.writes.slice(0, -1))
    assert.ok(bytes.length <= 32 * 1024 && bytes.toString().endsWith('\n'), 'whole lines in a block');
  assert.ok((out.writes.at(-1)?.length ?? 0) > 40_000, 'the long line alone');
  t.mock.timers.tick(200);
  const lines = linesOf(out.text());
  assert.deepEqual(
    lines.filter((line) => line['msg'] === 'request').map((line) => line['path']),
    paths,
  );
  assert.equal(lines.at(-1)?.['text'], 'x'.repeat(40_000));
});

test('pretty: a line for people, time, level, message and fields', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const out = written();
  const logger = createLogger({ level: 'debug', format: 'pretty', write: out.write, now: () => TIME.getTime() });
  logger.info('request', { method: 'GET', path: '/a b', status: 200, operation: undefined });
  t.mock.timers.tick(200);
  assert.equal(out.text(), '09:26:53.589 INFO: request method=GET path="/a b" status=200\n');
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

test('an access line reads as the generic line would, an empty operation left out; a path is escaped', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const out = written();
  const logger = createLogger({ level: 'info', format: 'json', write: out.write, now: () => TIME.getTime() });
  const fields = { requestId: 'r1', method: 'GET', kind: 'page', path: '/a"b\\c\n', status: 404, ms: 1.25, bytes: 10 };
  logger.request({ ...fields, operation: '' });
  logger.request({ ...fields, kind: 'api', operation: 'castVote' });
  t.mock.timers.tick(200);
  const [page, api] = linesOf(out.text());
  assert.deepEqual(page, { time: TIME.toISOString(), level: 'info', msg: 'request', ...fields });
  assert.deepEqual(api, { time: TIME.toISOString(), level: 'info', msg: 'request', ...fields, kind: 'api', operation: 'castVote' });
  const quiet = createLogger({ level: 'warn', format: 'json', write: out.write });
  quiet.request({ ...fields, operation: '' });
  t.mock.timers.tick(200);
  assert.equal(out.writes.length, 1, 'no access line below info');
});
