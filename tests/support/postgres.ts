import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The machine's PostgreSQL, as the tests use it: a fresh database per store
 * or per site, made from TEST_DATABASE_URL's server and dropped afterwards.
 */
export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

const made: string[] = [];

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The address of a new, empty database on the test server. */
export async function freshDatabase(prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  made.push(name);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops every database `freshDatabase` made, closing what is still connected to them. */
export async function dropDatabases(): Promise<void> {
  for (const name of made.splice(0)) await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** The rows of one query on `databaseUrl`, on a connection of its own. */
export async function queryRows<Row>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end();
  }
}
