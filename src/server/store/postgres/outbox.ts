import type { NotificationChannel, OutboxEntry } from '../types.ts';
import { insertStatement, OUTBOX_ROWS } from './inserts.ts';
import { OUTBOX_COLUMNS, outboxEntryOf, type OutboxRow } from './rows.ts';
import { run, type Queryable } from './sql.ts';

/**
 * The outbox on PostgreSQL. A new record's entries go in by the statement
 * that stores the record (`withOutbox`): one statement, one commit, so both
 * are kept or neither. Senders on any number of instances claim due rows
 * with FOR UPDATE SKIP LOCKED and a lease: two claims never get the same row
 * while its lease runs, and a row whose sender died is claimed again once
 * its lease is over.
 */

/**
 * `statement` (`WITH a AS (…) …` or a plain `INSERT …`) with the outbox
 * entries inserted beside it by a CTE of its own, their parameters after
 * the statement's. With no entries, the same text inserts nothing.
 */
export function withOutbox(
  statement: { text: string; params: unknown[] },
  entries: readonly OutboxEntry[],
): { text: string; params: unknown[] } {
  const outbox = insertStatement(OUTBOX_ROWS, entries, { first: statement.params.length + 1 });
  const rest = statement.text.startsWith('WITH ') ? `, ${statement.text.slice('WITH '.length)}` : ` ${statement.text}`;
  return { text: `WITH outboxed AS (${outbox.text})${rest}`, params: [...statement.params, ...outbox.params] };
}

export async function claimOutbox(db: Queryable, channel: NotificationChannel, limit: number, leaseMs: number): Promise<OutboxEntry[]> {
  const { rows } = await run<OutboxRow>(
    db,
    `UPDATE notification_outbox SET lease_until = now() + $3 * interval '1 millisecond'
     WHERE id IN (
       SELECT id FROM notification_outbox
       WHERE channel = $1 AND due_at <= now() AND (lease_until IS NULL OR lease_until <= now())
       ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING ${OUTBOX_COLUMNS}`,
    [channel, limit, leaseMs],
  );
  return rows.map(outboxEntryOf).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export async function outboxSent(db: Queryable, ids: readonly string[]): Promise<void> {
  await run(db, 'DELETE FROM notification_outbox WHERE id = ANY($1::text[])', [ids]);
}

export async function outboxFailed(db: Queryable, ids: readonly string[], dueAt: string): Promise<void> {
  await run(db, 'UPDATE notification_outbox SET attempts = attempts + 1, due_at = $2, lease_until = NULL WHERE id = ANY($1::text[])', [
    ids,
    dueAt,
  ]);
}

/** The email turn: taken when free or run out, renewed by its holder, refused to anyone else. */
export async function emailTurn(db: Queryable, holder: string, leaseMs: number): Promise<boolean> {
  const { rows } = await run<{ holder: string }>(
    db,
    `INSERT INTO email_sender (id, holder, until) VALUES (true, $1, now() + $2 * interval '1 millisecond')
     ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
     WHERE email_sender.holder = EXCLUDED.holder OR email_sender.until < now()
     RETURNING holder`,
    [holder, leaseMs],
  );
  return rows.length === 1;
}

export async function outboxDepth(db: Queryable): Promise<Record<NotificationChannel, number>> {
  const { rows } = await run<{ channel: NotificationChannel; count: string }>(
    db,
    'SELECT channel, count(*) FROM notification_outbox GROUP BY channel',
  );
  const depth = { email: 0, webhook: 0 };
  for (const row of rows) depth[row.channel] = Number(row.count);
  return depth;
}
