import { describe } from 'node:test';
import type { StoreEngine } from '../../src/server/store/roles.ts';
import { BOTH_CHANNELS, type ContractStores, type StoreHarness } from './store-contract-kit.ts';
import { deliveriesKept } from './store-contract-deliveries.ts';
import { mentionsKept } from './store-contract-mentions.ts';
import { followersKept } from './store-contract-followers.ts';
import { appearances } from './store-contract-appearances.ts';
import { subscribers } from './store-contract-newsletter.ts';
import { outboxClaims, outboxRecovery } from './store-contract-outbox.ts';
import { approvalAndBans, deletionAndReview, exportAndImport, newestComments, waitingRequestsAndLinks } from './store-contract-owner.ts';
import { concurrentVotesAndSubmissions, revisionsAndReopening, threadBasics } from './store-contract-threads.ts';

export { newComment, PARIS_SUBMISSION, replay, type StoreHarness } from './store-contract-kit.ts';

/**
 * The behaviour every store engine owes the site (src/server/store/roles.ts),
 * written once: each engine's test file runs it unchanged with its harness.
 */
export function storeContract(engine: string, harness: StoreHarness): void {
  /** A fresh store for one test, closed when the test ends. */
  async function freshStore(t: { after(fn: () => Promise<void>): void }): Promise<StoreEngine> {
    const store = await harness.open(await harness.fresh());
    t.after(() => store.close());
    return store;
  }

  /** A fresh store that puts new records in the outbox for both channels, closed when the test ends. */
  async function notifyingStore(t: { after(fn: () => Promise<void>): void }): Promise<{ store: StoreEngine; place: string }> {
    const place = await harness.fresh();
    const store = await harness.open(place, { notificationChannels: BOTH_CHANNELS });
    t.after(() => store.close());
    return { store, place };
  }

  const stores: ContractStores = { harness, freshStore, notifyingStore };
  describe(`the ${engine} store keeps its outbox`, () => {
    outboxClaims(stores);
    outboxRecovery(stores);
  });

  describe(`the ${engine} store keeps appearances and the newsletter`, () => {
    appearances(stores);
    subscribers(stores);
  });

  describe(`the ${engine} store keeps the store contract`, () => {
    threadBasics(stores);
    concurrentVotesAndSubmissions(stores);
    revisionsAndReopening(stores);
    deletionAndReview(stores);
    approvalAndBans(stores);
    waitingRequestsAndLinks(stores);
    newestComments(stores);
    exportAndImport(stores);
  });

  describe(`the ${engine} store keeps the federation's followers, secrets, deliveries and mentions`, () => {
    followersKept(stores);
    deliveriesKept(stores);
    mentionsKept(stores);
  });
}
