/** The store contract on the outbox (store-contract.ts runs these). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outboxIdOf } from '../../src/server/store/outbox.ts';
import { BOTH_CHANNELS, collect, newComment, PARIS_SUBMISSION, replay, type ContractStores } from './store-contract-kit.ts';

/** New records put entries in the outbox; claims, leases, settling. */
export function outboxClaims({ notifyingStore }: ContractStores): void {
  test('each new record puts one entry per channel in the outbox, with no reader hash, claimed oldest first', async (t) => {
    const { store } = await notifyingStore(t);
    const comment = await store.insertComment(newComment('told', 'Tell the owner'));
    const request = await store.insertTopicRequest({ requestTitle: 'Tides', details: null, authorHash: 'hash-2' });
    const report = await store.insertBugReport({ description: 'Broken link', pagePath: '/en/', authorHash: 'hash-3' });
    const submission = await store.insertCitySubmission(PARIS_SUBMISSION);
    assert.deepEqual(await store.outboxDepth(), { email: 4, webhook: 4 });

    const claimed = await store.claimNotifications('email', 10, 60_000);
    assert.deepEqual(
      claimed.map((entry) => [entry.channel, entry.notification.kind, entry.notification.id, entry.attempts]),
      [
        ['email', 'comment', comment.id, 0],
        ['email', 'topicRequest', request.id, 0],
        ['email', 'bugReport', report.id, 0],
        ['email', 'citySubmission', submission.id, 0],
      ],
    );
    assert.deepEqual(claimed[0]?.notification, {
      kind: 'comment',
      id: comment.id,
      articleSlug: 'told',
      parentId: null,
      depth: 1,
      author: 'Amber otter',
      body: 'Tell the owner',
      createdAt: comment.createdAt,
      status: 'published',
    });
    assert.deepEqual(
      claimed.map((entry) => entry.id),
      [comment, request, report, submission].map((record) => outboxIdOf(record.id, 'email')),
      'each entry named by its record and channel',
    );
    assert.doesNotMatch(JSON.stringify(claimed), /hash-/, 'no reader hash in a notification');
    assert.equal((await store.claimNotifications('webhook', 2, 60_000)).length, 2, 'each channel is claimed on its own');
  });

  test('a claimed entry is held for its lease, leaves once sent, and comes back one attempt more when it failed', async (t) => {
    const { store } = await notifyingStore(t);
    await store.insertComment(newComment('held', 'One'));
    await store.insertComment(newComment('held', 'Two'));
    const [first, second] = await store.claimNotifications('email', 10, 60_000);
    assert.ok(first && second);
    assert.deepEqual(await store.claimNotifications('email', 10, 60_000), [], 'nothing while the lease runs');

    await store.notificationsSent([first]);
    const later = new Date(Date.now() + 60_000).toISOString();
    await store.notificationsFailed([second], later);
    assert.deepEqual(await store.outboxDepth(), { email: 1, webhook: 2 });
    assert.deepEqual(await store.claimNotifications('email', 10, 60_000), [], 'a failed entry waits until it is due');

    await store.notificationsFailed([second], new Date(Date.now() - 1000).toISOString());
    const again = await store.claimNotifications('email', 10, 60_000);
    assert.deepEqual(
      again.map((entry) => [entry.id, entry.attempts]),
      [[second.id, 2]],
    );
  });

  test('a released entry is claimed again at once, with no attempt counted', async (t) => {
    const { store } = await notifyingStore(t);
    await store.insertComment(newComment('released'));
    const [claimed] = await store.claimNotifications('webhook', 1, 60_000);
    assert.ok(claimed);
    await store.notificationsReleased([claimed]);
    const again = await store.claimNotifications('webhook', 1, 60_000);
    assert.deepEqual(
      again.map((entry) => [entry.id, entry.attempts]),
      [[claimed.id, 0]],
    );
  });
}

/** The outbox across a dead sender, an export and a reopening. */
export function outboxRecovery({ harness, freshStore, notifyingStore }: ContractStores): void {
  test('an entry whose lease ran out is claimed again: a sender that died loses nothing', async (t) => {
    const { store } = await notifyingStore(t);
    const comment = await store.insertComment(newComment('lapsed'));
    const [claimed] = await store.claimNotifications('webhook', 1, 0);
    const [reclaimed] = await store.claimNotifications('webhook', 1, 60_000);
    assert.equal(reclaimed?.id, claimed?.id);
    assert.equal(reclaimed?.notification.id, comment.id);
  });

  test('notifications not sent yet move with an export, attempts and all, and importing them twice adds none', async (t) => {
    const { store: source } = await notifyingStore(t);
    const comment = await source.insertComment(newComment('moving'));
    const [email] = await source.claimNotifications('email', 1, 60_000);
    const [webhook] = await source.claimNotifications('webhook', 1, 60_000);
    assert.ok(email && webhook);
    await source.notificationsFailed([webhook], '2026-01-01T00:00:00.000Z');
    const exported = await collect(source.exportRecords());
    const notifications = exported.filter((record) => record.kind === 'notification');
    assert.deepEqual(
      exported.slice(-2).map((record) => record.kind),
      ['notification', 'notification'],
      'last, after the records they tell of',
    );

    const target = await freshStore(t);
    assert.deepEqual(await target.importRecords(replay(exported)), { added: exported.length, skipped: 0 });
    assert.deepEqual(await target.importRecords(replay(notifications)), { added: 0, skipped: 2 });
    assert.equal(email.notification.id, comment.id);
    assert.deepEqual(await target.claimNotifications('email', 10, 60_000), [email], 'a lease stays with the store it was taken in');
    assert.deepEqual(await target.claimNotifications('webhook', 10, 60_000), [
      { ...webhook, attempts: 1, dueAt: '2026-01-01T00:00:00.000Z' },
    ]);
  });

  test('the outbox outlasts a reopening, and a store with no channel puts nothing in it', async (t) => {
    const place = await harness.fresh();
    const first = await harness.open(place, { notificationChannels: BOTH_CHANNELS });
    const comment = await first.insertComment(newComment('kept'));
    const [sent] = await first.claimNotifications('email', 1, 60_000);
    assert.ok(sent);
    await first.notificationsSent([sent]);
    await first.close();

    const reopened = await harness.open(place);
    t.after(() => reopened.close());
    assert.deepEqual(await reopened.outboxDepth(), { email: 0, webhook: 1 });
    const [waiting] = await reopened.claimNotifications('webhook', 10, 60_000);
    assert.equal(waiting?.notification.id, comment.id);
    await reopened.insertComment(newComment('kept', 'Unnotified'));
    assert.deepEqual(await reopened.outboxDepth(), { email: 0, webhook: 1 });
  });
}
