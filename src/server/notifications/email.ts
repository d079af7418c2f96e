import { randomUUID } from 'node:crypto';
import type { OutboxEntry } from '../store/types.ts';
import { deliver, POLL_MS, SEND_TIMEOUT_MS, type Channel, type Outbox, type Stopping } from './channel.ts';
import type { SendEmail } from './delivery.ts';
import { emailOf } from './message.ts';

/**
 * The email channel. One sender at a time claims (its turn, kept in the
 * store), so that several instances still send one email an interval.
 * Claimed entries are held (up to EMAIL_MOST), and one email holding all of
 * them goes out once the first has waited GATHER_MS or the interval,
 * whichever is shorter (a burst makes one email), and the last email went
 * out at least the interval ago. A stopping sender sends what it holds at
 * once.
 */

/** How long a sender's turn at the email lasts unless renewed: a few passes, and a send that hangs to its deadline. */
const EMAIL_TURN_MS = 2 * SEND_TIMEOUT_MS + 5 * POLL_MS;
/** How long the first notification of an email waits for others to come with it. */
const GATHER_MS = 15_000;
/**
 * The most notifications one email holds, from however many passes: the rest
 * of a larger burst goes in the next. Each is claimed (on PostgreSQL, a row
 * updated) before its email: a bound on that work too, beside the readers'
 * writes.
 */
const EMAIL_MOST = 1000;

export class EmailChannel implements Channel {
  readonly name = 'email';
  readonly #outbox: Outbox;
  readonly #email: { send: SendEmail; intervalMs: number };
  /** Email entries claimed and waiting for their email. */
  #held: OutboxEntry[] = [];
  #heldSince = 0;
  #lastEmailAt = 0;
  /** This sender's name for its turn at the email (store.emailTurn). */
  readonly #holder = randomUUID();

  constructor(outbox: Outbox, email: { send: SendEmail; intervalMs: number }) {
    this.#outbox = outbox;
    this.#email = email;
  }

  /** How many entries wait for their email. */
  get held(): number {
    return this.#held.length;
  }

  async pass(stopping: Stopping): Promise<void> {
    const { store } = this.#outbox;
    const { intervalMs } = this.#email;
    const now = Date.now();
    // Held entries stay leased until their email is settled, whatever the interval.
    const leaseMs = intervalMs + GATHER_MS + 2 * SEND_TIMEOUT_MS;
    // Only the sender whose turn it is claims: with several instances, one of them groups everything into its emails.
    if (!stopping.begun.aborted && this.#held.length < EMAIL_MOST && (await store.emailTurn(this.#holder, EMAIL_TURN_MS))) {
      const claimed = await store.claimNotifications('email', EMAIL_MOST - this.#held.length, leaseMs);
      if (this.#held.length === 0) this.#heldSince = now;
      this.#held.push(...claimed);
    }
    const dueAt = Math.max(this.#heldSince + Math.min(GATHER_MS, intervalMs), this.#lastEmailAt + intervalMs);
    if (this.#held.length > 0 && now >= dueAt) await this.#sendHeld(stopping);
  }

  finish(stopping: Stopping): Promise<void> {
    return this.#sendHeld(stopping);
  }

  /** Sends the held entries as one email. */
  async #sendHeld(stopping: Stopping): Promise<void> {
    const { store, site, linksOf } = this.#outbox;
    const batch = this.#held;
    if (batch.length === 0) return;
    this.#held = [];
    const message = emailOf(
      batch.map((entry) => entry.notification),
      site,
      linksOf,
    );
    if (await deliver(store, 'email', batch, (signal) => this.#email.send(message, signal), stopping)) this.#lastEmailAt = Date.now();
  }
}
