/**
 * The sender: it takes notifications out of the store's outbox and sends
 * them, apart from any reader's request (a write only adds to the outbox, in
 * its own journal line or statement).
 *
 * - Every POLL_MS it claims what is due, per channel, under a lease: with
 *   several instances on one PostgreSQL, one of them gets each entry.
 * - Webhook: one POST per notification, oldest first.
 * - Email: one sender at a time claims (its turn, kept in the store), so
 *   that several instances still send one email an interval. Claimed
 *   entries are held (up to EMAIL_MOST), and one email holding all of them goes
 *   out once the first has waited GATHER_MS or the interval, whichever is
 *   shorter (a burst makes one email), and the last email went out at least
 *   the interval ago.
 * - A stopping server sends the email entries it holds at once.
 * - A sent entry leaves the outbox. A failed one is given back, due again
 *   after a backoff that doubles from BACKOFF_MS up to MAX_BACKOFF_MS; it is
 *   never dropped.
 * - A process that dies after a send and before the outbox hears of it sends
 *   that notification again: delivery is at least once, and a notification
 *   is lost only with the store itself.
 */
import { randomUUID } from 'node:crypto';
import { log } from '../observability/log.ts';
import { notificationGaugesFrom, notificationsSettled } from '../observability/counters.ts';
import type { OutboxEntry, StoreEngine } from '../store/types.ts';
import { SEND_TIMEOUT_MS, type SendEmail } from './delivery.ts';
import { emailOf, webhookBodyOf, type LinksOf } from './message.ts';

const POLL_MS = 1000;
/** How long a sender's turn at the email lasts unless renewed: a few passes, and a send that hangs to its timeout. */
const EMAIL_TURN_MS = 2 * SEND_TIMEOUT_MS + 5 * POLL_MS;
/** How long the first notification of an email waits for others to come with it. */
const GATHER_MS = 15_000;
const BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 15 * 60_000;
/**
 * The most notifications one email holds, from however many passes: the rest
 * of a larger burst goes in the next. Each is claimed (on PostgreSQL, a row
 * updated) before its email: a bound on that work too, beside the readers'
 * writes.
 */
const EMAIL_MOST = 1000;
/** The most webhooks posted in one pass. */
const WEBHOOK_BATCH = 20;

export interface SenderOptions {
  store: StoreEngine;
  site: string;
  linksOf: LinksOf;
  email?: { send: SendEmail; intervalMs: number };
  webhook?: (body: unknown) => Promise<void>;
}

/** When a send that failed for the `attempts`-th time so far (0: the first) is tried again. */
function retryAt(attempts: number): string {
  return new Date(Date.now() + Math.min(BACKOFF_MS * 2 ** attempts, MAX_BACKOFF_MS)).toISOString();
}

export class NotificationSender {
  readonly #options: SenderOptions;
  readonly #timer: NodeJS.Timeout;
  #pass: Promise<void> | null = null;
  /** Email entries claimed and waiting for their email. */
  #held: OutboxEntry[] = [];
  #heldSince = 0;
  #lastEmailAt = 0;
  /** This sender's name for its turn at the email (store.emailTurn). */
  readonly #holder = randomUUID();

  constructor(options: SenderOptions) {
    this.#options = options;
    notificationGaugesFrom({ outboxDepth: () => options.store.outboxDepth(), heldForEmail: () => this.#held.length });
    this.#timer = setInterval(() => {
      this.#pass ??= this.#sendDue().finally(() => {
        this.#pass = null;
      });
    }, POLL_MS);
  }

  /**
   * Stops claiming; resolves once the sends under way are done and the email
   * entries held are sent (or given back when that fails), so that no lease
   * outlives the process.
   */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    notificationGaugesFrom(null);
    await this.#pass;
    const { email } = this.#options;
    if (email && this.#held.length > 0) await this.#guarded('the email outbox', () => this.#sendHeld(email.send));
  }

  async #sendDue(): Promise<void> {
    const { email, webhook } = this.#options;
    await Promise.all([
      email ? this.#guarded('the email outbox', () => this.#sendEmail(email)) : undefined,
      webhook ? this.#guarded('the webhook outbox', () => this.#sendWebhooks(webhook)) : undefined,
    ]);
  }

  /** A store that does not answer is logged and tried at the next pass. */
  async #guarded(what: string, pass: () => Promise<void>): Promise<void> {
    try {
      await pass();
    } catch (error) {
      log().error(`[notifications] ${what} could not be read or updated; tried again shortly`, {}, error);
    }
  }

  async #sendEmail({ send, intervalMs }: NonNullable<SenderOptions['email']>): Promise<void> {
    const { store } = this.#options;
    const now = Date.now();
    // Held entries stay leased until their email is settled, whatever the interval.
    const leaseMs = intervalMs + GATHER_MS + 2 * SEND_TIMEOUT_MS;
    // Only the sender whose turn it is claims: with several instances, one of them groups everything into its emails.
    if (this.#held.length < EMAIL_MOST && (await store.emailTurn(this.#holder, EMAIL_TURN_MS))) {
      const claimed = await store.claimNotifications('email', EMAIL_MOST - this.#held.length, leaseMs);
      if (this.#held.length === 0) this.#heldSince = now;
      this.#held.push(...claimed);
    }
    if (this.#held.length === 0 || now < Math.max(this.#heldSince + Math.min(GATHER_MS, intervalMs), this.#lastEmailAt + intervalMs))
      return;
    await this.#sendHeld(send);
  }

  /** Sends the held email entries as one email; gives them back when it fails. */
  async #sendHeld(send: SendEmail): Promise<void> {
    const { store, site, linksOf } = this.#options;
    const batch = this.#held;
    this.#held = [];
    try {
      await send(
        emailOf(
          batch.map((entry) => entry.notification),
          site,
          linksOf,
        ),
      );
    } catch (error) {
      notificationsSettled('email', 'failed', batch.length);
      log().warn(`[notifications] an email of ${batch.length} notification(s) was not sent; tried again later`, {}, error);
      const dueAt = retryAt(batch.reduce((most, entry) => Math.max(most, entry.attempts), 0));
      await store.notificationsFailed(batch, dueAt);
      return;
    }
    this.#lastEmailAt = Date.now();
    notificationsSettled('email', 'sent', batch.length);
    await store.notificationsSent(batch);
  }

  async #sendWebhooks(post: (body: unknown) => Promise<void>): Promise<void> {
    const { store, site, linksOf } = this.#options;
    for (const entry of await store.claimNotifications('webhook', WEBHOOK_BATCH, WEBHOOK_BATCH * SEND_TIMEOUT_MS + POLL_MS)) {
      try {
        await post(webhookBodyOf(entry.notification, site, linksOf));
      } catch (error) {
        notificationsSettled('webhook', 'failed', 1);
        log().warn('[notifications] a webhook was not delivered; tried again later', {}, error);
        await store.notificationsFailed([entry], retryAt(entry.attempts));
        continue;
      }
      notificationsSettled('webhook', 'sent', 1);
      await store.notificationsSent([entry]);
    }
  }
}
