// The private Redis and PostgreSQL that `npm test` starts where none answers (scripts/test-services.ts): each answers
// on its own port, keeps its files in a folder of its own, and is gone, files and all, once stopped.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { test } from 'node:test';
import pg from 'pg';
import { answers, postgresPrograms, privatePostgres, privateRedis } from '../../scripts/test-services.ts';

/** Redis's answer to one PING, over a plain socket. */
function ping(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => {
      socket.end();
      resolve(chunk.toString().trim());
    });
    socket.once('error', reject);
  });
}

test('a private Redis answers on a port of its own, and once stopped is gone with its folder', async () => {
  const redis = await privateRedis();
  const port = Number(new URL(redis.url).port);
  assert.notEqual(port, 6379, 'never the machine’s own');
  try {
    assert.equal(await ping(redis.url), '+PONG');
    assert.ok(existsSync(redis.files));
  } finally {
    await redis.stop();
  }
  assert.equal(await answers('127.0.0.1', port), false);
  assert.equal(existsSync(redis.files), false);
});

test(
  'a private PostgreSQL has a database `test` the tests may use, and once stopped is gone with its folder',
  { skip: postgresPrograms() === null ? 'no PostgreSQL server is installed here' : false },
  async () => {
    const postgres = await privatePostgres();
    const port = Number(new URL(postgres.url).port);
    assert.notEqual(port, 5432, 'never the machine’s own');
    try {
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      try {
        await client.query('CREATE DATABASE a_test_of_its_own');
        const { rows } = await client.query<{ name: string }>('SELECT current_database() AS name');
        assert.deepEqual(rows, [{ name: 'test' }]);
      } finally {
        await client.end();
      }
    } finally {
      await postgres.stop();
    }
    assert.equal(await answers('127.0.0.1', port), false);
    assert.equal(existsSync(postgres.files), false);
  },
);
