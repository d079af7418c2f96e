/**
 * The sender: it takes notifications out of the store's outbox and sends
 * them, apart from any reader's request (a write only adds to the outbox, in
 * its own journal line or statement).
 *
 * - Each channel (email.ts, webhook.ts) has a loop of its own: every POLL_MS
 *   it claims what is due under a lease (with several instances on one
 *   PostgreSQL, one of them gets each entry) and sends it. A channel whose
 *   endpoint hangs holds up only itself.
 * - A send gives up at SEND_TIMEOUT_MS. A sent entry leaves the outbox. A
 *   failed one is given back, due again after a doubling backoff; it is never
 *   dropped.
 * - A stopping sender starts no send more, gives a send under way
 *   STOP_GRACE_MS at most, then aborts it, and gives back every entry it has
 *   not sent, due at once for the next start or another instance.
 * - A process that dies after a send and before the outbox hears of it sends
 *   that notification again: delivery is at least once, and a notification
 *   is lost only with the store itself.
 */
import { notificationGaugesFrom } from '../observability/counters.ts';
import { SendingLoop, type Outbox, type Stopping } from './channel.ts';
import type { PostWebhook, SendEmail } from './delivery.ts';
import { EmailChannel } from './email.ts';
import { WebhookChannel } from './webhook.ts';

/** How long a stopping sender lets the sends under way go on before it aborts them. */
const STOP_GRACE_MS = 3000;

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
   * Stops claiming; resolves within STOP_GRACE_MS and a store's answer, once
   * the held email entries are sent and every entry not sent is given back,
   * so that no lease outlives the process.
   */
  async stop(): Promise<void> {
    notificationGaugesFrom(null);
    this.#begun.abort();
    const grace = setTimeout(() => {
      this.#over.abort();
    }, STOP_GRACE_MS);
    try {
      await Promise.all(this.#loops.map((loop) => loop.stop()));
    } finally {
      clearTimeout(grace);
    }
  }
}
