/** The store contract's deliveries: the federation's activities for remote inboxes (src/server/federation/deliverer.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeliveredActivity } from '../../src/server/store/types.ts';
import { collect, replay, type ContractStores } from './store-contract-kit.ts';

const CREATE: DeliveredActivity = {
  activityId: 'https://site.example/articles/hello#create',
  activity: 'create',
  slug: 'hello',
  lang: 'en',
};
const INBOXES = ['https://a.example/inbox', 'https://b.example/inbox', 'https://c.example/users/c/inbox'];

/** The inboxes of deliveries, in order. */
function inboxesOf(deliveries: readonly { inbox: string }[]): string[] {
  return deliveries.map((delivery) => delivery.inbox);
}

export function deliveriesKept({ harness, freshStore }: ContractStores): void {
  test('an activity is queued once per inbox, claimed under a lease, retried, and once settled never again', async (t) => {
    const store = await freshStore(t);
    assert.equal(await store.queueDeliveries(CREATE, [...INBOXES, INBOXES[0] ?? '']), 3, 'an inbox named twice is one delivery');
    assert.equal(await store.queueDeliveries(CREATE, INBOXES), 0, 'queued again: nothing more');
    const [first, second] = await Promise.all([store.claimDeliveries(2, 60_000), store.claimDeliveries(2, 60_000)]);
    assert.deepEqual([...inboxesOf(first), ...inboxesOf(second)].sort(), [...INBOXES].sort(), 'two claims share nothing');
    assert.deepEqual(await store.claimDeliveries(10, 60_000), [], 'held while leased');
    const [a, b, c] = INBOXES.map((inbox) => ({ activityId: CREATE.activityId, inbox }));
    assert.ok(a && b && c);
    await store.deliveriesSettled([a], 'delivered');
    await store.deliveriesFailed([b], new Date(Date.now() - 1000).toISOString());
    await store.deliveriesReleased([c]);
    const again = await store.claimDeliveries(10, 60_000);
    assert.deepEqual(inboxesOf(again).sort(), [b.inbox, c.inbox].sort());
    assert.deepEqual(
      again.map((delivery) => [delivery.inbox, delivery.attempts, delivery.settledAt]).sort(),
      [
        [b.inbox, 1, null],
        [c.inbox, 0, null],
      ].sort(),
    );
    await store.deliveriesFailed([b], new Date(Date.now() + 3_600_000).toISOString());
    await store.deliveriesSettled([c], 'refused');
    assert.deepEqual(await store.claimDeliveries(10, 0), [], 'one due later, the others settled');
    assert.equal(await store.queueDeliveries(CREATE, INBOXES), 0, 'settled deliveries are never queued again');
    assert.equal(await store.queueDeliveries({ ...CREATE, activityId: `${CREATE.activityId}-2` }, [a.inbox]), 1, 'another activity is');
  });

  test('deliveries outlast a reopening: what was settled stays settled, the rest is claimed again', async () => {
    const place = await harness.fresh();
    const store = await harness.open(place);
    await store.queueDeliveries(CREATE, INBOXES);
    // A lease that runs out at once: what a process killed while sending leaves behind.
    const claimed = await store.claimDeliveries(2, 1);
    await store.deliveriesSettled(claimed.slice(0, 1), 'delivered');
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const reopened = await harness.open(place);
    try {
      const left = await reopened.claimDeliveries(10, 60_000);
      assert.equal(left.length, 2, 'the one claimed and not settled is claimed again');
      assert.ok(!inboxesOf(left).includes(claimed[0]?.inbox ?? ''));
    } finally {
      await reopened.close();
    }
  });

  test('settled deliveries are forgotten once settled before the time given, and for good; the rest stays', async () => {
    const place = await harness.fresh();
    const store = await harness.open(place);
    await store.queueDeliveries(CREATE, INBOXES);
    const [settled] = await store.claimDeliveries(1, 60_000);
    assert.ok(settled);
    await store.deliveriesSettled([settled], 'delivered');
    assert.equal(await store.pruneDeliveries(new Date(Date.now() - 60_000).toISOString()), 0, 'settled after that time');
    assert.equal(await store.pruneDeliveries(new Date(Date.now() + 60_000).toISOString()), 1);
    await store.close();
    const reopened = await harness.open(place);
    try {
      const exported = (await collect(reopened.exportRecords())).flatMap((record) => (record.kind === 'delivery' ? [record.item] : []));
      assert.deepEqual(inboxesOf(exported).sort(), INBOXES.filter((inbox) => inbox !== settled.inbox).sort());
      assert.equal((await reopened.claimDeliveries(10, 60_000)).length, INBOXES.length - 1, 'those not settled are still due');
    } finally {
      await reopened.close();
    }
  });

  test('deliveries move with an export, settled ones settled, and importing them twice changes nothing', async (t) => {
    const source = await freshStore(t);
    await source.queueDeliveries(CREATE, INBOXES);
    const [settled] = await source.claimDeliveries(1, 60_000);
    assert.ok(settled);
    await source.deliveriesSettled([settled], 'delivered');
    const exported = (await collect(source.exportRecords())).filter((record) => record.kind === 'delivery');
    assert.equal(exported.length, 3);
    const target = await freshStore(t);
    assert.deepEqual(await target.importRecords(replay(exported)), { added: 3, skipped: 0 });
    assert.deepEqual(await target.importRecords(replay(exported)), { added: 0, skipped: 3 });
    const due = await target.claimDeliveries(10, 60_000);
    assert.deepEqual(inboxesOf(due).sort(), INBOXES.filter((inbox) => inbox !== settled.inbox).sort());
    assert.equal(await target.queueDeliveries(CREATE, INBOXES), 0);
  });
}
