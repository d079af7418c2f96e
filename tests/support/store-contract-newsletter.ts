/** The store contract on the newsletter (store-contract.ts runs these). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collect, replay, type ContractStores } from './store-contract-kit.ts';

/** Subscribers: asked once an hour, confirmed, removed, forgotten; issues queued once, claimed, settled. */
export function subscribers({ freshStore, harness }: ContractStores): void {
  test('a subscription is asked for once an hour, confirmed, listed by language and removed', async (t) => {
    const store = await freshStore(t);
    const asked = await store.askSubscription(' Reader@Example.org ', 'fr', 3_600_000);
    assert.equal(asked.confirm, true);
    assert.deepEqual([asked.subscriber.email, asked.subscriber.lang, asked.subscriber.status], ['reader@example.org', 'fr', 'pending']);
    const twice = await store.askSubscription('reader@example.org', 'de', 3_600_000);
    assert.deepEqual([twice.confirm, twice.subscriber.id, twice.subscriber.lang], [false, asked.subscriber.id, 'fr'], 'one an address');
    assert.equal((await store.askSubscription('reader@example.org', 'fr', 0)).confirm, true, 'again once the quiet time is over');
    assert.deepEqual(await store.confirmedSubscribers(['fr']), []);
    assert.equal((await store.confirmSubscriber(asked.subscriber.id))?.status, 'confirmed');
    assert.deepEqual(
      (await store.confirmedSubscribers(['fr', 'en'])).map((item) => item.id),
      [asked.subscriber.id],
    );
    assert.deepEqual(await store.confirmedSubscribers(['en']), []);
    await store.askSubscription('other@example.org', 'fr', 3_600_000);
    await store.askSubscription('third@example.org', 'de', 3_600_000);
    assert.deepEqual((await store.stats()).subscribers, { fr: { confirmed: 1, pending: 1 }, de: { confirmed: 0, pending: 1 } });
    assert.equal(await store.removeSubscriber(asked.subscriber.id), true);
    assert.equal(await store.subscriber(asked.subscriber.id), null);
    assert.equal(await store.removeSubscriber(asked.subscriber.id), false);
  });

  test('a subscriber is found by address, as typed, and changes language without changing anything else', async (t) => {
    const store = await freshStore(t);
    const { subscriber } = await store.askSubscription('found@example.org', 'fr', 3_600_000);
    await store.confirmSubscriber(subscriber.id);
    assert.equal((await store.subscriberByAddress(' Found@Example.ORG '))?.id, subscriber.id);
    assert.equal(await store.subscriberByAddress('nobody@example.org'), null);
    const changed = await store.changeSubscriberLanguage(subscriber.id, 'de');
    assert.deepEqual(
      [changed?.id, changed?.email, changed?.lang, changed?.status],
      [subscriber.id, 'found@example.org', 'de', 'confirmed'],
    );
    assert.deepEqual(
      (await store.confirmedSubscribers(['de'])).map((item) => item.id),
      [subscriber.id],
    );
    assert.deepEqual(await store.confirmedSubscribers(['fr']), []);
    assert.equal((await store.subscriber(subscriber.id))?.lang, 'de', 'kept');
    assert.equal(await store.changeSubscriberLanguage('no-such-subscriber', 'de'), null);
  });

  test('removing a subscriber found by address forgets its issues not sent, and keeps those sent', async (t) => {
    const store = await freshStore(t);
    const { subscriber } = await store.askSubscription('leaving@example.org', 'fr', 3_600_000);
    await store.queueIssues({ slug: 'sent-one', lang: 'fr' }, [subscriber.id]);
    await store.issuesSent(await store.claimIssues(10, 60_000));
    await store.queueIssues({ slug: 'waiting-one', lang: 'fr' }, [subscriber.id]);
    const found = await store.subscriberByAddress('leaving@example.org');
    assert.equal(await store.removeSubscriber(found?.id ?? ''), true);
    assert.equal(await store.subscriberByAddress('leaving@example.org'), null);
    assert.deepEqual(await store.claimIssues(10, 60_000), [], 'its issue not sent is gone');
    const issues = (await collect(store.exportRecords())).filter((record) => record.kind === 'newsletterIssue');
    assert.deepEqual(
      issues.map((record) => record.item.slug),
      ['sent-one'],
    );
  });

  test('sent issues are forgotten once sent before the time given, and for good; those not sent stay', async () => {
    const place = await harness.fresh();
    const store = await harness.open(place);
    const { subscriber } = await store.askSubscription('reader@example.org', 'de', 3_600_000);
    await store.queueIssues({ slug: 'sent-one', lang: 'de' }, [subscriber.id]);
    await store.issuesSent(await store.claimIssues(10, 60_000));
    await store.queueIssues({ slug: 'waiting-one', lang: 'de' }, [subscriber.id]);
    assert.equal(await store.pruneIssues(new Date(Date.now() - 60_000).toISOString()), 0, 'sent after that time');
    assert.equal(await store.pruneIssues(new Date(Date.now() + 60_000).toISOString()), 1);
    await store.close();
    const reopened = await harness.open(place);
    try {
      const issues = (await collect(reopened.exportRecords())).flatMap((record) =>
        record.kind === 'newsletterIssue' ? [record.item.slug] : [],
      );
      assert.deepEqual(issues, ['waiting-one']);
      assert.deepEqual(
        (await reopened.claimIssues(10, 60_000)).map((issue) => issue.slug),
        ['waiting-one'],
        'the one not sent is still due',
      );
    } finally {
      await reopened.close();
    }
  });

  test('unconfirmed subscriptions are forgotten; confirmed ones stay', async (t) => {
    const store = await freshStore(t);
    const pending = await store.askSubscription('late@example.org', 'en', 3_600_000);
    const kept = await store.askSubscription('kept@example.org', 'en', 3_600_000);
    await store.confirmSubscriber(kept.subscriber.id);
    assert.equal(await store.forgetUnconfirmed(new Date(Date.now() + 1000).toISOString()), 1);
    assert.equal(await store.subscriber(pending.subscriber.id), null);
    assert.notEqual(await store.subscriber(kept.subscriber.id), null);
  });

  test('an issue is queued once per appearance and subscriber, claimed under a lease, and never queued again once sent', async (t) => {
    const store = await freshStore(t);
    const one = (await store.askSubscription('one@example.org', 'fr', 3_600_000)).subscriber;
    const two = (await store.askSubscription('two@example.org', 'fr', 3_600_000)).subscriber;
    const article = { slug: 'new-one', lang: 'fr' } as const;
    assert.equal(await store.queueIssues(article, [one.id, two.id, 'no-such-subscriber']), 2);
    assert.equal(await store.queueIssues(article, [one.id]), 0, 'queued once');
    const claimed = await store.claimIssues(10, 60_000);
    assert.deepEqual(claimed.map((issue) => issue.subscriberId).sort(), [one.id, two.id].sort());
    assert.deepEqual(await store.claimIssues(10, 60_000), [], 'held while leased');
    const [first, second] = claimed as [(typeof claimed)[0], (typeof claimed)[0]];
    await store.issuesSent([first]);
    await store.issuesFailed([second], new Date(Date.now() - 1000).toISOString());
    const retried = await store.claimIssues(10, 60_000);
    assert.deepEqual(
      retried.map((issue) => [issue.subscriberId, issue.attempts]),
      [[second.subscriberId, 1]],
    );
    await store.issuesReleased(retried);
    assert.equal((await store.claimIssues(10, 60_000)).length, 1, 'released: due at once');
    assert.equal(await store.queueIssues(article, [first.subscriberId]), 0, 'a sent one is never queued again');
    assert.equal(await store.newsletterTurn('a', 60_000), true);
    const exported = (await collect(store.exportRecords())).filter((record) =>
      ['subscriber', 'newsletterIssue', 'appearance'].includes(record.kind),
    );
    assert.equal(exported.filter((record) => record.kind === 'newsletterIssue').length, 2);
    const copy = await harness.open(await harness.fresh());
    t.after(() => copy.close());
    assert.deepEqual(await copy.importRecords(replay(exported)), { added: 4, skipped: 0 });
    assert.deepEqual(await copy.importRecords(replay(exported)), { added: 0, skipped: 4 });
    assert.equal((await copy.claimIssues(10, 60_000)).length, 1, 'the one not sent is sent from the store it moved to');
  });
}
