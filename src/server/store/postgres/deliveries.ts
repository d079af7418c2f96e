/** The federation's deliveries on PostgreSQL: migrations/1796860800000_deliveries.sql. */
import type { DeliveryStore } from '../roles.ts';
import type { DeliveredActivity, Delivery, DeliveryKey, DeliveryOutcome } from '../types.ts';
import type { PostgresCore } from './engine.ts';
import { asColumns } from './sql.ts';

export const DELIVERY_COLUMNS = 'activity_id, inbox, activity, slug, lang, created_at, attempts, due_at, settled_at, outcome';

export interface DeliveryRow {
  activity_id: string;
  inbox: string;
  activity: Delivery['activity'];
  slug: string;
  lang: Delivery['lang'];
  created_at: Date;
  attempts: number;
  due_at: Date;
  settled_at: Date | null;
  outcome: Delivery['outcome'];
}

export function deliveryOf(row: DeliveryRow): Delivery {
  return {
    activityId: row.activity_id,
    inbox: row.inbox,
    activity: row.activity,
    slug: row.slug,
    lang: row.lang,
    createdAt: row.created_at.toISOString(),
    attempts: row.attempts,
    dueAt: row.due_at.toISOString(),
    settledAt: row.settled_at?.toISOString() ?? null,
    outcome: row.outcome,
  };
}

/** Inserts deliveries (`$1`…`$10`, a column each: deliveryColumns) not queued yet; those there stay as they are. */
export const INSERT_DELIVERIES = `INSERT INTO deliveries (${DELIVERY_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::integer[],
    $8::timestamptz[], $9::timestamptz[], $10::text[])
  ON CONFLICT (activity_id, inbox) DO NOTHING`;

export function deliveryColumns(items: readonly Delivery[]): unknown[][] {
  return asColumns(
    items.map((item) => [
      item.activityId,
      item.inbox,
      item.activity,
      item.slug,
      item.lang,
      item.createdAt,
      item.attempts,
      item.dueAt,
      item.settledAt,
      item.outcome,
    ]),
    10,
  );
}

/** The deliveries named (`$1`, `$2`: keyParams), by their key. */
const KEYED = '(activity_id, inbox) IN (SELECT * FROM unnest($1::text[], $2::text[]))';

function keyParams(deliveries: readonly DeliveryKey[]): unknown[] {
  return [deliveries.map((item) => item.activityId), deliveries.map((item) => item.inbox)];
}

export class PostgresDeliveries implements DeliveryStore {
  readonly #core: PostgresCore;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  /** Due at once by the database's clock, the one claims compare with. */
  async queueDeliveries({ activityId, activity, slug, lang }: DeliveredActivity, inboxes: readonly string[]): Promise<number> {
    if (inboxes.length === 0) return 0;
    const { rowCount } = await this.#core.query(
      `INSERT INTO deliveries (${DELIVERY_COLUMNS})
       SELECT $1, inbox, $2, $3, $4, now(), 0, now(), NULL, NULL FROM unnest($5::text[]) AS given (inbox)
       ON CONFLICT (activity_id, inbox) DO NOTHING`,
      [activityId, activity, slug, lang, [...new Set(inboxes)]],
    );
    return rowCount ?? 0;
  }

  /** FOR UPDATE SKIP LOCKED and a lease, as the outbox claims (outbox.ts). */
  async claimDeliveries(limit: number, leaseMs: number): Promise<Delivery[]> {
    const { rows } = await this.#core.query<DeliveryRow>(
      `UPDATE deliveries SET lease_until = now() + $2 * interval '1 millisecond'
       WHERE (activity_id, inbox) IN (
         SELECT activity_id, inbox FROM deliveries
         WHERE settled_at IS NULL AND due_at <= now() AND (lease_until IS NULL OR lease_until <= now())
         ORDER BY due_at, created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING ${DELIVERY_COLUMNS}`,
      [limit, leaseMs],
    );
    return rows.map(deliveryOf).sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.createdAt.localeCompare(b.createdAt));
  }

  async deliveriesSettled(deliveries: readonly DeliveryKey[], outcome: DeliveryOutcome): Promise<void> {
    await this.#core.query(`UPDATE deliveries SET settled_at = now(), outcome = $3, lease_until = NULL WHERE ${KEYED}`, [
      ...keyParams(deliveries),
      outcome,
    ]);
  }

  async deliveriesFailed(deliveries: readonly DeliveryKey[], dueAt: string): Promise<void> {
    await this.#core.query(`UPDATE deliveries SET attempts = attempts + 1, due_at = $3, lease_until = NULL WHERE ${KEYED}`, [
      ...keyParams(deliveries),
      dueAt,
    ]);
  }

  async deliveriesReleased(deliveries: readonly DeliveryKey[]): Promise<void> {
    await this.#core.query(`UPDATE deliveries SET lease_until = NULL WHERE ${KEYED}`, keyParams(deliveries));
  }

  async pruneDeliveries(settledBefore: string): Promise<number> {
    const { rowCount } = await this.#core.query('DELETE FROM deliveries WHERE settled_at < $1', [settledBefore]);
    return rowCount ?? 0;
  }
}
