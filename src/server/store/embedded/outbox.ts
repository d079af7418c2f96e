import type { OutboxStore } from '../roles.ts';
import type { NotificationChannel, OutboxEntry, OutboxKey } from '../types.ts';
import type { JournalChange } from './documents.ts';
import type { EmbeddedCore } from './engine.ts';

/** The embedded store's outbox: entries kept in its state, leases in memory (one process has the store open: lock.ts). */
export class EmbeddedOutbox implements OutboxStore {
  readonly #core: EmbeddedCore;
  /** Claimed outbox entries: until when (epoch milliseconds) no other claim gets them. */
  readonly #leases = new Map<string, number>();

  constructor(core: EmbeddedCore) {
    this.#core = core;
  }

  claimNotifications(channel: NotificationChannel, limit: number, leaseMs: number): Promise<OutboxEntry[]> {
    const at = Date.now();
    const claimed = this.#core.state.outbox.due(channel, limit, at, (id) => (this.#leases.get(id) ?? 0) <= at);
    for (const { id } of claimed) this.#leases.set(id, at + leaseMs);
    return Promise.resolve(claimed);
  }

  async notificationsSent(entries: readonly OutboxKey[]): Promise<void> {
    const ids = entries.map(({ id }) => id);
    await this.#settle(ids, { op: 'outboxSent', ids });
  }

  async notificationsFailed(entries: readonly OutboxKey[], dueAt: string): Promise<void> {
    const ids = entries.map(({ id }) => id);
    await this.#settle(ids, { op: 'outboxFailed', ids, dueAt });
  }

  notificationsReleased(entries: readonly OutboxKey[]): Promise<void> {
    // Leases are kept in memory only: nothing to write.
    for (const { id } of entries) this.#leases.delete(id);
    return Promise.resolve();
  }

  /** Always this process's: one process at a time holds an embedded store (its lock). */
  emailTurn(): Promise<boolean> {
    return Promise.resolve(true);
  }

  outboxDepth(): Promise<Record<NotificationChannel, number>> {
    return Promise.resolve(this.#core.state.outbox.depth());
  }

  async #settle(ids: readonly string[], change: JournalChange): Promise<void> {
    for (const id of ids) this.#leases.delete(id);
    if (ids.length > 0) await this.#core.commit(change);
  }
}
