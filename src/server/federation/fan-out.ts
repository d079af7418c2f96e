import type { Consumer } from '../appearances/watch.ts';
import { log } from '../observability/log.ts';
import type { DeliveryStore, FollowerStore } from '../store/roles.ts';
import type { Follower } from '../store/types.ts';
import { activityOf } from './activities.ts';

/** Followers read at a time. */
const FOLLOWERS_AT_ONCE = 500;

/** Where the followers of a language's actor get its activities: each server's shared inbox where it has one, else each follower's own. */
async function inboxesOf(store: FollowerStore, lang: Follower['lang']): Promise<string[]> {
  const inboxes = new Set<string>();
  for (let offset = 0; ; offset += FOLLOWERS_AT_ONCE) {
    const followers = await store.listFollowers(lang, offset, FOLLOWERS_AT_ONCE);
    for (const follower of followers) inboxes.add(follower.sharedInbox ?? follower.inbox);
    if (followers.length < FOLLOWERS_AT_ONCE) return [...inboxes];
  }
}

/**
 * The federation's part of appearances (src/server/appearances/): each
 * version of a translation queues one activity by its language's actor for
 * each inbox of that actor's followers, and no other language's: a `Create`
 * when it appeared (or came back), an `Update` when its text changed, a
 * `Delete` when it was withdrawn, each by an id of its own (activityOf).
 * Queuing twice queues nothing more (DeliveryStore.queueDeliveries), so a
 * version handed again after a crash delivers nothing twice. `queued` is
 * told when there is something to send.
 */
export function fanOutConsumer(store: FollowerStore & DeliveryStore, site: string, queued: () => void): Consumer {
  return {
    name: 'federation',
    take: async (appearance) => {
      const inboxes = await inboxesOf(store, appearance.lang);
      const count = await store.queueDeliveries(activityOf(site, appearance), inboxes);
      if (count === 0) return;
      log().info(`[federation] ${count} delivery(ies) queued of an article translation's ${appearance.change}`);
      queued();
    },
  };
}
