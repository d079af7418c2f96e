import { now } from '../clock.ts';
import { deliveryKey, newDeliveries } from '../records.ts';
import type { DeliveryStore } from '../roles.ts';
import type { DeliveredActivity, Delivery, DeliveryKey, DeliveryOutcome } from '../types.ts';
import type { DeliveryState } from './delivery-state.ts';
import type { EmbeddedCore } from './engine.ts';
import { Leases } from './leases.ts';

/**
 * The federation's deliveries on the embedded store. One process holds the
 * store (lock.ts): a check and the change it decides run with no await
 * between, and leases are kept in memory.
 */
export class EmbeddedDeliveries implements DeliveryStore {
  readonly #core: EmbeddedCore;
  readonly #state: DeliveryState;
  readonly #leases = new Leases();

  constructor(core: EmbeddedCore) {
    this.#core = core;
    this.#state = core.state.deliveries;
  }

  async queueDeliveries(activity: DeliveredActivity, inboxes: readonly string[]): Promise<number> {
    const items = newDeliveries(activity, [...new Set(inboxes)]).filter((item) => this.#state.deliveries.find(deliveryKey(item)) === null);
    if (items.length > 0) await this.#core.commit({ op: 'deliveriesQueued', items });
    return items.length;
  }

  claimDeliveries(limit: number, leaseMs: number): Promise<Delivery[]> {
    const { unsettled, deliveries } = this.#state;
    return Promise.resolve(this.#leases.claim(unsettled, (key) => deliveries.find(key), limit, leaseMs));
  }

  async deliveriesSettled(deliveries: readonly DeliveryKey[], outcome: DeliveryOutcome): Promise<void> {
    const keys = this.#released(deliveries);
    if (keys.length > 0) await this.#core.commit({ op: 'deliveriesSettled', keys, settledAt: now(), outcome });
  }

  async deliveriesFailed(deliveries: readonly DeliveryKey[], dueAt: string): Promise<void> {
    const keys = this.#released(deliveries);
    if (keys.length > 0) await this.#core.commit({ op: 'deliveriesFailed', keys, dueAt });
  }

  deliveriesReleased(deliveries: readonly DeliveryKey[]): Promise<void> {
    this.#released(deliveries);
    return Promise.resolve();
  }

  async pruneDeliveries(settledBefore: string): Promise<number> {
    const pruned = this.#state.settledBefore(settledBefore).length;
    if (pruned > 0) await this.#core.commit({ op: 'deliveriesPruned', settledBefore });
    return pruned;
  }

  /** Ends the leases of these deliveries; their keys. */
  #released(deliveries: readonly DeliveryKey[]): string[] {
    const keys = deliveries.map(deliveryKey);
    this.#leases.end(keys);
    return keys;
  }
}
