/**
 * The sender: one loop per channel, taking notifications out of the store's outbox
 * (docs/architecture.md, "Notifications, moderation and the desk").
 */
import { notificationGaugesFrom } from '../observability/counters.ts';
import { SendingLoop, type Outbox, type Stopping } from './channel.ts';
import type { PostWebhook, SendEmail } from './delivery.ts';
import { EmailChannel } from './email.ts';
import { settledWithinGrace } from '../store/outbox.ts';
import { WebhookChannel } from './webhook.ts';

export interface SenderOptions extends Outbox {
  email?: { send: SendEmail; intervalMs: number };
  webhook?: PostWebhook;
}

export class NotificationSender {
  readonly #begun = new AbortController();
  readonly #over = new AbortController();
  readonly #loops: SendingLoop[];

  constructor({ email, webhook, ...outbox }: SenderOptions) {
    const stopping: Stopping = { begun: this.#begun.signal, over: this.#over.signal };
    const emailChannel = email ? new EmailChannel(outbox, email) : undefined;
    const channels = [emailChannel, webhook ? new WebhookChannel(outbox, webhook) : undefined];
    this.#loops = channels.filter((channel) => channel !== undefined).map((channel) => new SendingLoop(channel, stopping));
    notificationGaugesFrom({ outboxDepth: () => outbox.store.outboxDepth(), heldForEmail: () => emailChannel?.held ?? 0 });
  }

  /**
   * Stops claiming; resolves within the senders' grace and a store's answer, once
   * the held email entries are sent and every entry not sent is given back,
   * so that no lease outlives the process.
   */
  async stop(): Promise<void> {
    notificationGaugesFrom(null);
    this.#begun.abort();
    await settledWithinGrace(Promise.all(this.#loops.map((loop) => loop.stop())), this.#over);
  }
}
