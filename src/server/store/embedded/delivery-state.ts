import { deliveryKey } from '../records.ts';
import type { Delivery } from '../types.ts';
import { Collection } from './collection.ts';
import { storedShapes, type JournalRecord } from './documents.ts';
import type { StoreLayout } from './layout.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

const DELIVERY_OPS = ['deliveriesQueued', 'deliveriesSettled', 'deliveriesFailed', 'deliveriesPruned'] as const;
type DeliveryRecord = Extract<JournalRecord, { op: (typeof DELIVERY_OPS)[number] }>;

/** Whether a journal record is one of the federation's deliveries. */
export function isDeliveryRecord(record: JournalRecord): record is DeliveryRecord {
  return (DELIVERY_OPS as readonly string[]).includes(record.op);
}

/**
 * The embedded store's deliveries (`deliveries.json` and the journal), and
 * the keys of those not settled yet, oldest first, so that a claim never
 * walks the settled ones.
 */
export class DeliveryState {
  readonly deliveries: Collection<Delivery>;
  readonly unsettled = new Set<string>();

  private constructor(deliveries: Collection<Delivery>) {
    this.deliveries = deliveries;
    for (const item of deliveries.oldestFirst()) if (item.settledAt === null) this.unsettled.add(deliveryKey(item));
  }

  static async load(layout: StoreLayout): Promise<DeliveryState> {
    return new DeliveryState(await Collection.load(layout.deliveries, storedShapes.delivery, deliveryKey));
  }

  /** The settled deliveries settled before `time` (ISO 8601). */
  settledBefore(time: string): Delivery[] {
    const before = Date.parse(time);
    return this.deliveries.oldestFirst().filter((item) => item.settledAt !== null && Date.parse(item.settledAt) < before);
  }

  /** Applies a journal record unless the snapshot holds it already; returns what it changed. */
  apply(record: DeliveryRecord): SnapshotTarget | null {
    if (record.seq <= this.deliveries.journalSeq) return null;
    if (record.op === 'deliveriesQueued') {
      for (const item of record.items) {
        this.deliveries.add(item);
        if (item.settledAt === null) this.unsettled.add(deliveryKey(item));
      }
      return this.deliveries;
    }
    if (record.op === 'deliveriesPruned') {
      for (const item of this.settledBefore(record.settledBefore)) this.deliveries.remove(deliveryKey(item));
      return this.deliveries;
    }
    for (const key of record.keys) {
      const item = this.deliveries.find(key);
      if (!item) continue;
      if (record.op === 'deliveriesFailed') this.deliveries.replace({ ...item, attempts: item.attempts + 1, dueAt: record.dueAt });
      else {
        this.deliveries.replace({ ...item, settledAt: record.settledAt, outcome: record.outcome });
        this.unsettled.delete(key);
      }
    }
    return this.deliveries;
  }
}
