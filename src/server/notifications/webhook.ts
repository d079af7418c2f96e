import { deliver, POLL_MS, SEND_TIMEOUT_MS, type Channel, type Outbox, type Stopping } from './channel.ts';
import type { PostWebhook } from './delivery.ts';
import { webhookBodyOf } from './message.ts';

/** The most webhooks posted in one pass. */
const WEBHOOK_BATCH = 20;

/**
 * The webhook channel: one POST per notification, oldest first, one at a
 * time. A stopping sender starts no POST more, and gives back the rest of
 * its pass untried.
 */
export class WebhookChannel implements Channel {
  readonly name = 'webhook';
  readonly #outbox: Outbox;
  readonly #post: PostWebhook;

  constructor(outbox: Outbox, post: PostWebhook) {
    this.#outbox = outbox;
    this.#post = post;
  }

  async pass(stopping: Stopping): Promise<void> {
    const { store, site, linksOf } = this.#outbox;
    const claimed = await store.claimNotifications('webhook', WEBHOOK_BATCH, WEBHOOK_BATCH * SEND_TIMEOUT_MS + POLL_MS);
    for (const [index, entry] of claimed.entries()) {
      if (stopping.begun.aborted) {
        await store.notificationsReleased(claimed.slice(index));
        return;
      }
      const body = webhookBodyOf(entry.notification, site, linksOf);
      await deliver(store, 'webhook', [entry], (signal) => this.#post(body, signal), stopping);
    }
  }

  /** Nothing is held between passes. */
  finish(): Promise<void> {
    return Promise.resolve();
  }
}
