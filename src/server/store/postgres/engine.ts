/** The PostgreSQL store (DATABASE_URL), for several instances sharing one database: docs/architecture.md ("The store"). */
import pg from 'pg';
import { log } from '../../observability/log.ts';
import type { Notified } from '../outbox.ts';
import { engineOf, type StoreEngine, type StoreLifecycle } from '../roles.ts';
import type { NotificationChannel } from '../types.ts';
import { BanWatch } from './ban-watch.ts';
import { connectionSettings } from './connection.ts';
import { Gate } from './gate.ts';
import { migrate } from './migrate.ts';
import { PostgresMentions } from './mentions.ts';
import { PostgresDeliveries } from './deliveries.ts';
import { PostgresFollowers } from './followers.ts';
import { PostgresAppearances } from './appearances.ts';
import { PostgresModeration } from './moderation.ts';
import { PostgresNewsletter } from './newsletter.ts';
import { PostgresOutbox, withOutbox } from './outbox.ts';
import { secretName } from '../shapes.ts';
import { inTransaction, run, SALT_SETTING, SECRET_SETTING_PREFIX } from './sql.ts';
import { PostgresSubmissions } from './submissions.ts';
import { PostgresThreads } from './threads.ts';
import { PostgresTransfer } from './transfer.ts';

export interface PostgresStoreOptions {
  /** Connections this process may hold at most. */
  poolSize: number;
  /**
   * Limits on connecting and on each statement, in milliseconds, or null for
   * none: the site keeps them short so that a write fails within 2 s when
   * PostgreSQL does not answer; the owner's tool runs long statements.
   */
  timeoutMs: number | null;
  /** Whether the owner's bans are held in memory and followed (ban-watch.ts), as the site does, or asked for at each check. */
  watchBans: boolean;
  /** The channels a new comment, request, report or submission, or a verified Webmention, is put in the outbox for. */
  notificationChannels: readonly NotificationChannel[];
}

const SERVER_OPTIONS: PostgresStoreOptions = { poolSize: 20, timeoutMs: 1500, watchBans: true, notificationChannels: [] };

/**
 * Opens the store at `url` (completed as libpq would: connection.ts),
 * applying the migrations it lacks. Rejects when PostgreSQL cannot be
 * reached or a migration fails.
 */
export async function openPostgresStore(url: string, options: Partial<PostgresStoreOptions> = {}): Promise<StoreEngine> {
  const { poolSize, timeoutMs, watchBans, notificationChannels } = { ...SERVER_OPTIONS, ...options };
  const connection = connectionSettings(url);
  const pool = new pg.Pool({
    ...connection,
    max: poolSize,
    application_name: 'longhand',
    keepAlive: true,
    // Planned for the arrays each execution passes. A generic plan guesses a fixed row count for every unnest and, made
    // while a table is small, goes on joining it by scanning it whole as it grows (docs/architecture.md, "The store").
    options: '-c plan_cache_mode=force_custom_plan',
    ...(timeoutMs === null ? {} : { connectionTimeoutMillis: timeoutMs, statement_timeout: timeoutMs, query_timeout: timeoutMs + 300 }),
  });
  // An idle connection that breaks (PostgreSQL restarted) is dropped by the pool; unhandled, the event would end the process.
  pool.on('error', (error) => {
    log().error(`[store] a PostgreSQL connection failed: ${error.message}`);
  });
  try {
    const client = await pool.connect();
    try {
      await migrate(client);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const banWatch = watchBans
    ? new BanWatch({ ...connection, application_name: 'longhand-bans', keepAlive: true, connectionTimeoutMillis: timeoutMs ?? 0 })
    : null;
  await banWatch?.start();
  const core = new PostgresCore(pool, poolSize, banWatch, notificationChannels);
  return engineOf({
    threads: new PostgresThreads(core),
    submissions: new PostgresSubmissions(core),
    moderation: new PostgresModeration(core),
    outbox: new PostgresOutbox(core),
    followers: new PostgresFollowers(core),
    deliveries: new PostgresDeliveries(core),
    mentions: new PostgresMentions(core),
    appearances: new PostgresAppearances(core),
    newsletter: new PostgresNewsletter(core),
    transfer: new PostgresTransfer(core),
    lifecycle: new PostgresLifecycle(core),
  });
}

/** What every role of the PostgreSQL store shares: its connections, the gate they are let in by, the ban watch. */
export class PostgresCore {
  readonly pool: pg.Pool;
  readonly gate: Gate;
  readonly banWatch: BanWatch | null;
  readonly #notificationChannels: readonly NotificationChannel[];
  /** The batches of writes and ban checks that finish before the connections go. */
  readonly #drained: { idle(): Promise<void> }[] = [];
  #closing: Promise<void> | null = null;

  constructor(pool: pg.Pool, poolSize: number, banWatch: BanWatch | null, notificationChannels: readonly NotificationChannel[]) {
    this.pool = pool;
    this.gate = new Gate(poolSize);
    this.banWatch = banWatch;
    this.#notificationChannels = notificationChannels;
  }

  /** Batchers whose calls in flight finish before the store closes. */
  drainOnClose(...batchers: { idle(): Promise<void> }[]): void {
    this.#drained.push(...batchers);
  }

  /** `statement` with the outbox entries of the records it stores, in the same statement. */
  withOutbox(statement: { text: string; params: unknown[] }, notified: Notified[]): { text: string; params: unknown[] } {
    return withOutbox(statement, notified, this.#notificationChannels);
  }

  query<Row extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<pg.QueryResult<Row>> {
    return this.gate.run(() => run<Row>(this.pool, text, params));
  }

  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.gate.run(() => inTransaction(this.pool, work));
  }

  close(): Promise<void> {
    // Requests already let in (a client that hung up leaves its write queued) finish before the connections go.
    this.#closing ??= Promise.all([...this.#drained.map((batcher) => batcher.idle()), this.banWatch?.close()])
      .then(() => this.gate.idle())
      .then(() => this.pool.end());
    return this.#closing;
  }
}

/** The PostgreSQL store as the process holds it: its salt and secret settings, whether it answers, its closing. */
class PostgresLifecycle implements StoreLifecycle {
  readonly #core: PostgresCore;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  keptSalt(make: () => string): Promise<string> {
    return this.#kept(SALT_SETTING, make);
  }

  async keptSecret(name: string, make: () => string | Promise<string>): Promise<string> {
    return this.#kept(`${SECRET_SETTING_PREFIX}${secretName.parse(name)}`, make);
  }

  /** The `settings` row `name`, inserted from `make` when there is none. */
  async #kept(name: string, make: () => string | Promise<string>): Promise<string> {
    const read = async () =>
      (await this.#core.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name])).rows[0]?.value;
    const known = await read();
    if (known) return known;
    // Two instances starting at once: the second insert does nothing and both read the first one's value.
    await this.#core.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, await make()]);
    const kept = await read();
    if (!kept) throw new Error(`The setting ${name} vanished while it was read`);
    return kept;
  }

  // Straight to the pool, outside the gate: a burst of writes queued there says nothing of whether PostgreSQL answers.
  async ping(): Promise<void> {
    await this.#core.pool.query('SELECT 1');
  }

  close(): Promise<void> {
    return this.#core.close();
  }
}
