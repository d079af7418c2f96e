/** The outbox on PostgreSQL: docs/architecture.md ("The store", "An outbox"). */
import { notificationOf, type Notified } from '../outbox.ts';
import type { OutboxStore } from '../roles.ts';
import type { NotificationChannel, OutboxEntry, OutboxKey } from '../types.ts';
import type { PostgresCore } from './engine.ts';
import { OUTBOX_COLUMNS, outboxEntryOf, type OutboxRow } from './rows.ts';
import { asColumns, run, type Queryable } from './sql.ts';

/**
 * `statement` (`WITH a AS (…) …` or a plain `INSERT …`) with the outbox
 * entries of the records it stores inserted beside it by a CTE of its own,
 * their parameters after the statement's: a row per record and channel, named
 * `outboxIdOf(record id, channel)` (store/outbox.ts), due at once. Each
 * record's notification is passed once however many channels there are, and
 * each row made from it. With no record, the same text inserts nothing; a
 * store that notifies on no channel gets `statement` as it is, and makes no
 * notification.
 */
export function withOutbox(
  statement: { text: string; params: unknown[] },
  notified: readonly Notified[],
  channels: readonly NotificationChannel[],
): { text: string; params: unknown[] } {
  if (channels.length === 0) return statement;
  const first = statement.params.length + 1;
  const told = notified.map((one) => [one.record.id, JSON.stringify(notificationOf(one)), one.record.createdAt]);
  const outbox = `INSERT INTO notification_outbox (id, channel, notification, created_at, attempts, due_at)
    SELECT told.id || '.' || channels.channel, channels.channel, told.notification, told.created_at, 0, told.created_at
    FROM unnest($${first}::text[], $${first + 1}::json[], $${first + 2}::timestamptz[]) AS told (id, notification, created_at),
      unnest($${first + 3}::text[]) AS channels (channel)`;
  const rest = statement.text.startsWith('WITH ') ? `, ${statement.text.slice('WITH '.length)}` : ` ${statement.text}`;
  return { text: `WITH outboxed AS (${outbox})${rest}`, params: [...statement.params, ...asColumns(told, 3), channels] };
}

/**
 * Claims due rows with FOR UPDATE SKIP LOCKED and a lease: two claims never
 * get the same row while its lease runs, and a row whose sender died is
 * claimed again once its lease is over.
 */
async function claimOutbox(db: Queryable, channel: NotificationChannel, limit: number, leaseMs: number): Promise<OutboxEntry[]> {
  const { rows } = await run<OutboxRow>(
    db,
    `UPDATE notification_outbox SET lease_until = now() + $3 * interval '1 millisecond'
     WHERE (channel, created_at, id) IN (
       SELECT channel, created_at, id FROM notification_outbox
       WHERE channel = $1 AND due_at <= now() AND (lease_until IS NULL OR lease_until <= now())
       ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING ${OUTBOX_COLUMNS}`,
    [channel, limit, leaseMs],
  );
  return rows.map(outboxEntryOf).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** The rows of `entries`, found by the outbox's key (channel, created_at, id): `$1`, `$2` and `$3` of its statement. */
const KEYED = '(channel, created_at, id) IN (SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[]))';

function keyParams(entries: readonly OutboxKey[]): unknown[] {
  return asColumns(
    entries.map(({ channel, createdAt, id }) => [channel, createdAt, id]),
    3,
  );
}

async function outboxSent(db: Queryable, entries: readonly OutboxKey[]): Promise<void> {
  await run(db, `DELETE FROM notification_outbox WHERE ${KEYED}`, keyParams(entries));
}

async function outboxFailed(db: Queryable, entries: readonly OutboxKey[], dueAt: string): Promise<void> {
  await run(db, `UPDATE notification_outbox SET attempts = attempts + 1, due_at = $4, lease_until = NULL WHERE ${KEYED}`, [
    ...keyParams(entries),
    dueAt,
  ]);
}

async function outboxReleased(db: Queryable, entries: readonly OutboxKey[]): Promise<void> {
  await run(db, `UPDATE notification_outbox SET lease_until = NULL WHERE ${KEYED}`, keyParams(entries));
}

/**
 * A sender's turn (the owner's email, or the newsletter's): taken when free
 * or run out, renewed by its holder, refused to anyone else. Each sender
 * keeps its turn in a table of its own, so that the two never wait on each other.
 */
export async function senderTurn(
  db: Queryable,
  table: 'email_sender' | 'newsletter_sender',
  holder: string,
  leaseMs: number,
): Promise<boolean> {
  const { rows } = await run<{ holder: string }>(
    db,
    `INSERT INTO ${table} (id, holder, until) VALUES (true, $1, now() + $2 * interval '1 millisecond')
     ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
     WHERE ${table}.holder = EXCLUDED.holder OR ${table}.until < now()
     RETURNING holder`,
    [holder, leaseMs],
  );
  return rows.length === 1;
}

async function outboxDepth(db: Queryable): Promise<Record<NotificationChannel, number>> {
  const { rows } = await run<{ channel: NotificationChannel; count: string }>(
    db,
    'SELECT channel, count(*) FROM notification_outbox GROUP BY channel',
  );
  const depth = { email: 0, webhook: 0 };
  for (const row of rows) depth[row.channel] = Number(row.count);
  return depth;
}

/** The outbox role on PostgreSQL: the statements above, each let in by the store's gate. */
export class PostgresOutbox implements OutboxStore {
  readonly #core: PostgresCore;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  claimNotifications(channel: NotificationChannel, limit: number, leaseMs: number): Promise<OutboxEntry[]> {
    return this.#core.gate.run(() => claimOutbox(this.#core.pool, channel, limit, leaseMs));
  }

  notificationsSent(entries: readonly OutboxKey[]): Promise<void> {
    return this.#core.gate.run(() => outboxSent(this.#core.pool, entries));
  }

  notificationsFailed(entries: readonly OutboxKey[], dueAt: string): Promise<void> {
    return this.#core.gate.run(() => outboxFailed(this.#core.pool, entries, dueAt));
  }

  notificationsReleased(entries: readonly OutboxKey[]): Promise<void> {
    return this.#core.gate.run(() => outboxReleased(this.#core.pool, entries));
  }

  emailTurn(holder: string, leaseMs: number): Promise<boolean> {
    return this.#core.gate.run(() => senderTurn(this.#core.pool, 'email_sender', holder, leaseMs));
  }

  outboxDepth(): Promise<Record<NotificationChannel, number>> {
    return this.#core.gate.run(() => outboxDepth(this.#core.pool));
  }
}
