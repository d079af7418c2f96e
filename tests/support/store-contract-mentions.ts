/** The store contract's Webmentions: received and sent, one per source and target (src/server/federation/webmention/). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outboxIdOf } from '../../src/server/store/outbox.ts';
import { threadTopic, type Mention } from '../../src/server/store/types.ts';
import { BOTH_CHANNELS, collect, replay, type ContractStores } from './store-contract-kit.ts';

const RECEIVED: Mention = {
  source: 'https://blog.example/posts/1',
  target: 'https://site.example/articles/hello',
  direction: 'received',
  articleSlug: 'hello',
  lang: 'en',
  status: 'unverified',
  kind: null,
  authorName: null,
  authorUrl: null,
  content: null,
  receivedAt: '2026-01-01T10:00:00.000Z',
  settledAt: null,
  attempts: 0,
  dueAt: '2026-01-01T10:00:00.000Z',
};
const SENT: Mention = {
  ...RECEIVED,
  source: 'https://site.example/articles/hello',
  target: 'https://other.example/page',
  direction: 'sent',
  status: 'unsent',
};

export function mentionsKept({ harness, freshStore }: ContractStores): void {
  test('a mention is kept once per source and target, claimed under a lease, replaced, and removed', async (t) => {
    const store = await freshStore(t);
    const before = await store.revision(threadTopic('hello'));
    assert.equal(await store.addMention(RECEIVED), true);
    assert.equal(await store.addMention({ ...RECEIVED, status: 'published' }), false, 'one per source and target');
    assert.equal(await store.addMention(SENT), true);
    assert.notEqual(await store.revision(threadTopic('hello')), before, 'a received one moves its thread');
    const [first, second] = await Promise.all([store.claimMentions(1, 60_000), store.claimMentions(5, 60_000)]);
    assert.equal([...first, ...second].length, 2, 'two claims share nothing');
    assert.deepEqual(await store.claimMentions(5, 60_000), [], 'held while leased');
    const verified: Mention = { ...RECEIVED, status: 'published', kind: 'reply', authorName: 'Ann', content: 'Yes.', dueAt: null };
    assert.equal(await store.replaceMention(verified), true);
    assert.equal(await store.replaceMention({ ...SENT, source: 'https://site.example/articles/none' }), false);
    assert.deepEqual(await store.mentionsOf('hello'), [verified], 'received ones only');
    assert.deepEqual(await store.findMention(SENT), SENT);
    await store.replaceMention({ ...SENT, dueAt: new Date(Date.now() - 1000).toISOString(), attempts: 1 });
    assert.deepEqual(
      (await store.claimMentions(5, 60_000)).map((item) => item.target),
      [SENT.target],
      'a replaced one is due again, its lease ended',
    );
    const revision = await store.revision(threadTopic('hello'));
    assert.equal(await store.removeMention(RECEIVED), true);
    assert.equal(await store.removeMention(RECEIVED), false);
    assert.notEqual(await store.revision(threadTopic('hello')), revision);
    assert.deepEqual(await store.mentionsOf('hello'), []);
    assert.deepEqual(
      (await store.listMentions()).map((item) => item.direction),
      ['sent'],
    );
  });

  test('mentions outlast a reopening, and move with an export once', async (t) => {
    const place = await harness.fresh();
    const store = await harness.open(place);
    await store.addMention(RECEIVED);
    await store.addMention(SENT);
    await store.replaceMention({ ...SENT, status: 'sent', dueAt: null });
    await store.close();
    const reopened = await harness.open(place);
    try {
      assert.deepEqual(await reopened.listMentions(), [RECEIVED, { ...SENT, status: 'sent', dueAt: null }]);
      assert.deepEqual(
        (await reopened.claimMentions(5, 60_000)).map((item) => item.source),
        [RECEIVED.source],
      );
      const exported = (await collect(reopened.exportRecords())).filter((record) => record.kind === 'mention');
      assert.equal(exported.length, 2);
      const target = await freshStore(t);
      assert.deepEqual(await target.importRecords(replay(exported)), { added: 2, skipped: 0 });
      assert.deepEqual(await target.importRecords(replay(exported)), { added: 0, skipped: 2 });
      assert.deepEqual(await target.listMentions(), await reopened.listMentions());
    } finally {
      await reopened.close();
    }
  });

  test('a received mention verified for the first time tells the owner once, kept with it, and its entries move with an export', async (t) => {
    const place = await harness.fresh();
    const store = await harness.open(place, { notificationChannels: BOTH_CHANNELS });
    const shown: Mention = { ...RECEIVED, source: 'https://blog.example/posts/2' };
    for (const added of [RECEIVED, shown, SENT]) await store.addMention(added);
    assert.deepEqual(await store.outboxDepth(), { email: 0, webhook: 0 }, 'nothing while unverified');
    const verified = {
      kind: 'reply',
      authorName: 'Dana Blogger',
      authorUrl: 'https://blog.example/',
      content: 'Yes.',
      dueAt: null,
    } as const;
    const waiting: Mention = { ...RECEIVED, ...verified, status: 'waiting', settledAt: '2026-01-01T10:05:00.000Z' };
    await store.replaceMention(waiting);
    await store.replaceMention({ ...shown, ...verified, status: 'published', settledAt: '2026-01-01T10:06:00.000Z' });
    await store.replaceMention({ ...waiting, settledAt: '2026-01-01T11:00:00.000Z' });
    await store.replaceMention({ ...waiting, status: 'published' });
    await store.replaceMention({ ...SENT, status: 'sent', dueAt: null });
    assert.deepEqual(await store.outboxDepth(), { email: 2, webhook: 2 }, 'a first verification only: not again, approved or sent');
    await store.close();

    const reopened = await harness.open(place, { notificationChannels: BOTH_CHANNELS });
    t.after(() => reopened.close());
    const claimed = await reopened.claimNotifications('email', 10, 60_000);
    const [first] = claimed;
    assert.ok(first);
    assert.deepEqual(first.notification, {
      kind: 'mention',
      id: first.notification.id,
      createdAt: waiting.settledAt,
      source: RECEIVED.source,
      articleSlug: 'hello',
      lang: 'en',
      status: 'waiting',
      mentionKind: 'reply',
      authorName: 'Dana Blogger',
      authorUrl: 'https://blog.example/',
      body: 'Yes.',
    });
    assert.equal(first.id, outboxIdOf(first.notification.id, 'email'));
    assert.deepEqual(
      claimed.map((entry) => [entry.createdAt, entry.notification.kind === 'mention' && entry.notification.status]),
      [
        ['2026-01-01T10:05:00.000Z', 'waiting'],
        ['2026-01-01T10:06:00.000Z', 'published'],
      ],
      'dated when verified',
    );
    const exported = (await collect(reopened.exportRecords())).filter((record) => record.kind === 'notification');
    const target = await freshStore(t);
    assert.deepEqual(await target.importRecords(replay(exported)), { added: 4, skipped: 0 });
    assert.deepEqual(await target.claimNotifications('email', 10, 60_000), claimed);
  });
}
