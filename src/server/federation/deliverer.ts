/**
 * The federation's deliverer (docs/architecture.md, "Federation"): takes due
 * deliveries from the store under a lease, whichever instance is free, and
 * POSTs each activity to its inbox, a few at a time per remote host. A
 * delivery is claimed before its POST and settled after it: a process killed
 * in between leaves it to be claimed again when the lease runs out (at
 * least once, and at most once more for that one inbox, whose server knows
 * the activity by its id). A failure is retried with a backoff; an inbox
 * that answers 404 or 410, whose address is private, or on an instance the
 * owner blocked, is given up on.
 * Nothing here runs in a reader's request.
 */
import type { Context } from '@fedify/fedify';
import { LRUCache } from 'lru-cache';
import type { LanguageCode } from '../../i18n/languages.ts';
import { log } from '../observability/log.ts';
import { retryAt } from '../store/outbox.ts';
import type { Delivery } from '../store/types.ts';
import { activityBody } from './activities.ts';
import type { FederationData } from './data.ts';
import { postActivity, type SigningKey } from './inbox-post.ts';
import { startPolling } from '../runtime/polling.ts';

/** The most one POST may take; one that takes longer has failed and is tried again later. */
const POST_TIMEOUT_MS = 10_000;
/** POSTs under way to one remote host at most: a server with many followers here is not flooded. */
const PER_HOST = 4;
/** Deliveries claimed at a time. */
const CLAIMED_AT_ONCE = 32;
/**
 * How long a claim is held. A delivery whose POST could still be under way
 * when its lease runs out is given back unsent instead, so that no other
 * sender takes it while it goes: a slow host's tail waits for a claim of
 * its own.
 */
const LEASE_MS = 3 * POST_TIMEOUT_MS;
/** How often the store is asked for due deliveries when nothing woke the deliverer sooner. */
const POLL_MS = 2000;
const BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 6 * 3600_000;
/** Failures after which an inbox is given up on for that activity: about two days of tries. */
const MOST_ATTEMPTS = 14;
/**
 * How long a settled delivery is kept: what keeps an activity from being
 * queued twice for an inbox is needed while its appearance may be handed
 * again (a crash between queueing and handing), minutes, not a week; and a
 * thousand followers times every article would otherwise be kept for good.
 */
const SETTLED_KEPT_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 3600_000;

export interface Deliverer {
  /** Looks for due deliveries now rather than at the next poll. */
  wake(): void;
  /** Takes nothing more; resolves once the POSTs under way are settled or given back. */
  stop(): Promise<void>;
}

/** Each language's signing key and each activity's body, made once per process. */
function memos(ctx: Context<FederationData>) {
  const keys = new Map<LanguageCode, Promise<SigningKey>>();
  const bodies = new LRUCache<string, Promise<string | null>>({ max: 64 });
  return {
    key: (lang: LanguageCode): Promise<SigningKey> => {
      let key = keys.get(lang);
      if (!key) {
        key = ctx.getActorKeyPairs(lang).then((pairs) => {
          const rsa = pairs.find((pair) => pair.privateKey.algorithm.name === 'RSASSA-PKCS1-v1_5');
          if (!rsa) throw new Error('the actors have no RSA key');
          return { privateKey: rsa.privateKey, keyId: rsa.keyId };
        });
        key.catch(() => keys.delete(lang));
        keys.set(lang, key);
      }
      return key;
    },
    body: (delivery: Delivery): Promise<string | null> => {
      let body = bodies.get(delivery.activityId);
      if (!body) {
        body = activityBody(ctx, delivery);
        // What could not be made (the store did not answer) is made again when next asked for.
        body.catch(() => bodies.delete(delivery.activityId));
        bodies.set(delivery.activityId, body);
      }
      return body;
    },
  };
}

/** Runs `work` on each item, at most `limit` at once. */
export async function eachAtMost<Item>(items: readonly Item[], limit: number, work: (item: Item) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as Item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Starts delivering; `allowPrivate` is FEDERATION_ALLOW_PRIVATE_ADDRESSES. */
export function startDeliverer(ctx: Context<FederationData>, allowPrivate: boolean): Deliverer {
  const { store } = ctx.data;
  const made = memos(ctx);
  const stopping = new AbortController();

  const deliver = async (delivery: Delivery, leaseEnds: number): Promise<void> => {
    if (Date.now() + POST_TIMEOUT_MS >= leaseEnds) {
      await store.deliveriesReleased([delivery]);
      return;
    }
    try {
      const body = await made.body(delivery);
      // No longer visible (a deploy withdrew it): there is nothing to send.
      if (body === null) {
        await store.deliveriesSettled([delivery], 'refused');
        return;
      }
      const signal = AbortSignal.any([AbortSignal.timeout(POST_TIMEOUT_MS), stopping.signal]);
      const outcome = await postActivity(delivery.inbox, body, await made.key(delivery.lang), { allowPrivate, signal });
      if (outcome === 'delivered') await store.deliveriesSettled([delivery], 'delivered');
      else if (outcome !== 'failed' || delivery.attempts + 1 >= MOST_ATTEMPTS) {
        log().warn(`[federation] an inbox was given up on (${outcome === 'failed' ? 'failed too often' : outcome})`);
        await store.deliveriesSettled([delivery], 'refused');
      } else await store.deliveriesFailed([delivery], retryAt(delivery.attempts, BACKOFF_MS, MAX_BACKOFF_MS));
    } catch (error) {
      if (stopping.signal.aborted) {
        await store.deliveriesReleased([delivery]);
        return;
      }
      log().warn('[federation] a delivery failed; tried again later', {}, error);
      await store.deliveriesFailed([delivery], retryAt(delivery.attempts, BACKOFF_MS, MAX_BACKOFF_MS));
    }
  };

  let prunedAt = 0;
  const deliverClaimed = async (): Promise<void> => {
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await store.pruneDeliveries(new Date(prunedAt - SETTLED_KEPT_MS).toISOString());
    }
    while (!polling.stopped) {
      const leaseEnds = Date.now() + LEASE_MS;
      const claimed = await store.claimDeliveries(CLAIMED_AT_ONCE, LEASE_MS);
      if (claimed.length === 0) return;
      const byHost = Map.groupBy(claimed, (delivery) => new URL(delivery.inbox).hostname);
      await Promise.all(
        [...byHost].map(async ([host, ofHost]) => {
          // A blocked instance is sent nothing more: its deliveries are given up on.
          if (await store.isInstanceBlocked(host)) await store.deliveriesSettled(ofHost, 'refused');
          else await eachAtMost(ofHost, PER_HOST, (delivery) => deliver(delivery, leaseEnds));
        }),
      );
    }
  };

  const polling = startPolling(
    deliverClaimed,
    POLL_MS,
    (error: unknown) => {
      log().error('[federation] the deliveries could not be read or updated; tried again shortly', {}, error);
    },
    stopping,
  );
  return polling;
}
