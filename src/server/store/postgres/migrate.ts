import { join } from 'node:path';
import { runner } from 'node-pg-migrate';
import type { PoolClient } from 'pg';

/** The versioned SQL migrations, `migrations/<timestamp>_<name>.sql`, read from the project folder the site runs in. */
const MIGRATIONS_DIR = join(process.cwd(), 'migrations');

/**
 * Applies the migrations not applied yet, in order, in one transaction.
 * Several instances starting at once wait for each other on
 * node-pg-migrate's advisory lock instead of failing.
 */
export async function migrate(client: PoolClient): Promise<void> {
  await runner({
    dbClient: client,
    dir: MIGRATIONS_DIR,
    direction: 'up',
    migrationsTable: 'schema_migrations',
    checkOrder: true,
    advisoryLockMode: 'wait',
    log: () => undefined,
  });
}
