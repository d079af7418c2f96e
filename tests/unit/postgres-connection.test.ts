import assert from 'node:assert/strict';
import { userInfo } from 'node:os';
import { afterEach, describe, test } from 'node:test';
import pg from 'pg';
import { connectionSettings } from '../../src/server/store/postgres/connection.ts';

const VARIABLES = ['USER', 'PGUSER', 'PGDATABASE', 'PGHOST', 'PGPORT', 'PGSSLMODE'] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of VARIABLES) {
    const value = saved[name];
    if (value === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = value;
  }
});

/** What the pg driver connects with for `url` under `env` (a client that never connects reads its settings at once). */
function resolved(url: string, env: Partial<Record<(typeof VARIABLES)[number], string>> = {}) {
  for (const name of VARIABLES) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, env);
  const client = new pg.Client(connectionSettings(url));
  // `ssl` holds the TLS options once any sslmode asks for TLS; the types say boolean.
  const ssl = client.ssl as boolean | { rejectUnauthorized?: boolean; checkServerIdentity?: unknown };
  return { user: client.user, database: client.database, host: client.host, port: client.port, ssl };
}

describe('PostgreSQL connection settings, completed as libpq completes them', () => {
  const me = userInfo().username;

  test('no user in the address and no PGUSER: the operating system’s user, with USER unset', () => {
    assert.deepEqual(resolved('postgres://127.0.0.1:5432/site'), { user: me, database: 'site', host: '127.0.0.1', port: 5432, ssl: false });
    assert.equal(resolved('postgres://db.internal').database, me, 'the database defaults to the user’s name');
    assert.equal(resolved('/run/postgresql site').user, me);
  });

  test('the address, then PG* variables, come first', () => {
    assert.equal(resolved('postgres://alice@h/site', { PGUSER: 'bob' }).user, 'alice');
    assert.equal(resolved('postgres://alice:secret@h/site').user, 'alice');
    assert.equal(resolved('postgres://h/site', { PGUSER: 'bob', USER: 'carol' }).user, 'bob');
    assert.equal(resolved('postgres://h/site?user=dave', { PGUSER: 'bob' }).user, 'dave');
    assert.deepEqual(resolved('postgres:///', { PGHOST: 'db.internal', PGPORT: '6543', PGDATABASE: 'longhand' }), {
      user: me,
      database: 'longhand',
      host: 'db.internal',
      port: 6543,
      ssl: false,
    });
  });

  test('sslmode, in the address or PGSSLMODE, means what it means to libpq', () => {
    assert.equal(resolved('postgres://h/site?sslmode=disable').ssl, false);
    assert.equal(resolved('postgres://h/site?sslmode=allow').ssl, false);
    for (const mode of ['prefer', 'require', 'no-verify'])
      assert.deepEqual(resolved(`postgres://h/site?sslmode=${mode}`).ssl, { rejectUnauthorized: false }, mode);
    assert.deepEqual(resolved('postgres://h/site', { PGSSLMODE: 'require' }).ssl, { rejectUnauthorized: false });
    assert.deepEqual(resolved('postgres://h/site?sslmode=verify-full', { PGSSLMODE: 'disable' }).ssl, {}, 'full checks, the address first');
    assert.throws(() => resolved('postgres://h/site?sslmode=verify-ca'), /sslrootcert/, 'verify-ca needs the CA to check against');
  });
});
