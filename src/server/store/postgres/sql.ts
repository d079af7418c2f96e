import type { ClientBase, Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';

/** Something to run a query on: the pool (any connection) or one connection (inside a transaction). */
export type Queryable = Pool | ClientBase;

/** The `settings` row that keeps the generated IP-hash salt. */
export const SALT_SETTING = 'ip-hash-salt';

/** The prefix of the `settings` rows that keep the secrets (StoreLifecycle's keptSecret): `secret:<name>`. */
export const SECRET_SETTING_PREFIX = 'secret:';

/** `($1, $2), ($3, $4)` and its parameters: rows inserted by one statement. */
export function valuesList(rows: readonly (readonly unknown[])[]): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const tuples = rows.map((row) => `(${row.map((value) => `$${params.push(value)}`).join(', ')})`);
  return { text: tuples.join(', '), params };
}

/**
 * Rows as one array a column, `width` arrays (empty ones when there are no
 * rows): how one statement takes any number of rows through `unnest`, with
 * the same text, and so the same prepared statement, for one row or a thousand.
 */
export function asColumns(rows: readonly (readonly unknown[])[], width: number): unknown[][] {
  return Array.from({ length: width }, (_, column) => rows.map((row) => row[column]));
}

const statementNames = new Map<string, string>();

/**
 * Runs a query as a named prepared statement: PostgreSQL parses it once per
 * connection, which the hot paths (a vote, a comment) would otherwise pay on
 * every write. The site's connections still plan it for each execution's
 * values (plan_cache_mode, engine.ts).
 */
export function run<Row extends QueryResultRow>(db: Queryable, text: string, values: unknown[] = []): Promise<QueryResult<Row>> {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `longhand_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return db.query<Row>({ name, text, values });
}

/** Marks what `topic` covers as changed; every write calls it last in its transaction (the row's lock is the last one it takes). */
export async function bumpRevision(db: Queryable, topic: string): Promise<void> {
  await run(
    db,
    'INSERT INTO revisions (topic, revision) VALUES ($1, 1) ON CONFLICT (topic) DO UPDATE SET revision = revisions.revision + 1',
    [topic],
  );
}

/**
 * Runs `work` in a transaction on one connection: committed when it
 * resolves, rolled back when it throws. A connection that failed is
 * destroyed rather than handed to the next request.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(true);
    throw error;
  }
}
