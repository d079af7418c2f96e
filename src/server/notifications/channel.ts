import { log } from '../observability/log.ts';
import { notificationsSettled } from '../observability/counters.ts';
import type { OutboxStore } from '../store/roles.ts';
import type { NotificationChannel, OutboxEntry } from '../store/types.ts';
import type { LinksOf } from './message.ts';
import { retryAt } from '../store/outbox.ts';

/**
 * What every channel shares: its own sending loop, the deadline of a send,
 * and how a send's entries are settled. Each channel claims and sends on its
 * own, so that one whose endpoint hangs holds up only itself.
 */

export const POLL_MS = 1000;
/** The most a send may take, from connecting to the answer; one that takes longer fails and is tried again later. */
export const SEND_TIMEOUT_MS = 15_000;
const BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 15 * 60_000;

/** What every channel sends from and with: the store's outbox, the site's origin, a notification's moderation links. */
export interface Outbox {
  store: OutboxStore;
  site: string;
  linksOf: LinksOf;
}

/** A stopping sender's two moments. */
export interface Stopping {
  /** Aborts when the server begins to stop: no send starts after it, and what is claimed and unsent is given back. */
  begun: AbortSignal;
  /** Aborts a few seconds later: a send still under way gives up, and its entries are given back. */
  over: AbortSignal;
}

/** A channel's part of the sender: its passes, and what it does last when the sender stops. */
export interface Channel {
  name: NotificationChannel;
  /** Claims what is due and sends it; runs again only once the last pass is over. */
  pass(stopping: Stopping): Promise<void>;
  /** Runs once the last pass is over, as the sender stops: sends or gives back what the channel still holds. */
  finish(stopping: Stopping): Promise<void>;
}

/**
 * Sends `batch` by `send`, which gives up when its signal aborts: at
 * SEND_TIMEOUT_MS, or when the stopping sender's grace is over. Sent, the
 * entries leave the outbox; failed, they are due again after a backoff that
 * doubles with their attempts; cut short by a stop, they are given back as
 * they were, due at the next start (the endpoint may have had them: delivery
 * is at least once). Resolves with whether they were sent.
 */
export async function deliver(
  store: OutboxStore,
  channel: NotificationChannel,
  batch: readonly OutboxEntry[],
  send: (signal: AbortSignal) => Promise<void>,
  stopping: Stopping,
): Promise<boolean> {
  try {
    await send(AbortSignal.any([AbortSignal.timeout(SEND_TIMEOUT_MS), stopping.over]));
  } catch (error) {
    if (stopping.over.aborted) {
      log().warn(`[notifications] ${batch.length} ${channel} notification(s) cut short by the stop; kept for the next start`);
      await store.notificationsReleased(batch);
      return false;
    }
    notificationsSettled(channel, 'failed', batch.length);
    log().warn(`[notifications] ${batch.length} ${channel} notification(s) not sent; tried again later`, {}, error);
    await store.notificationsFailed(
      batch,
      retryAt(
        batch.reduce((most, entry) => Math.max(most, entry.attempts), 0),
        BACKOFF_MS,
        MAX_BACKOFF_MS,
      ),
    );
    return false;
  }
  notificationsSettled(channel, 'sent', batch.length);
  await store.notificationsSent(batch);
  return true;
}

/** A store that does not answer is logged, and the channel tries again at its next pass. */
async function guarded(channel: NotificationChannel, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    log().error(`[notifications] the ${channel} outbox could not be read or updated; tried again shortly`, {}, error);
  }
}

/** Runs a channel's pass every POLL_MS, unless the last one is still under way. */
export class SendingLoop {
  readonly #channel: Channel;
  readonly #stopping: Stopping;
  readonly #timer: NodeJS.Timeout;
  #pass: Promise<void> | null = null;

  constructor(channel: Channel, stopping: Stopping) {
    this.#channel = channel;
    this.#stopping = stopping;
    this.#timer = setInterval(() => {
      this.#pass ??= guarded(channel.name, () => channel.pass(stopping)).finally(() => {
        this.#pass = null;
      });
    }, POLL_MS);
  }

  /** Starts no pass more; resolves once the pass under way and the channel's finish are over. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#pass;
    await guarded(this.#channel.name, () => this.#channel.finish(this.#stopping));
  }
}
