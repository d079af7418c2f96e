import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { outboxIdOf } from '../../src/server/store/outbox.ts';
import { nextVote } from '../../src/server/store/service.ts';
import type { StoreEngine } from '../../src/server/store/roles.ts';
import type { ExportRecord, NewCitySubmission, NewComment, NotificationChannel } from '../../src/server/store/types.ts';

/**
 * What a store contract run needs from an engine: a fresh, empty place to
 * keep a store (a directory, a database), and a way to open the store kept
 * there, again after it was closed.
 */
export interface StoreHarness {
  fresh(): Promise<string>;
  open(place: string, options?: { notificationChannels: readonly NotificationChannel[] }): Promise<StoreEngine>;
}

const BOTH_CHANNELS: readonly NotificationChannel[] = ['email', 'webhook'];

export function newComment(articleSlug: string, body = 'A thought.', parentId: string | null = null): NewComment {
  return { articleSlug, parentId, depth: parentId ? 2 : 1, author: 'Amber otter', authorHash: 'hash-1', body, status: 'published' };
}

/** A city submission as the store receives it. */
export const PARIS_SUBMISSION: NewCitySubmission = {
  cityId: '2988507',
  city: 'Paris',
  country: 'FR',
  countryName: 'France',
  region: 'Île-de-France',
  lat: 48.85,
  lon: 2.35,
  currency: 'EUR',
  netPay: 2500,
  rent: 1200,
  beerPrice: 7,
  authorHash: 'h',
};

/**
 * The behaviour every store engine owes the site (src/server/store/types.ts),
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

  describe(`the ${engine} store keeps its outbox`, () => {
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
  });

  describe(`the ${engine} store keeps the store contract`, () => {
    test('a new store is empty', async (t) => {
      const store = await freshStore(t);
      assert.deepEqual(await store.listComments('first-article'), []);
      assert.equal(await store.getComment('first-article', 'nope'), null);
      assert.deepEqual(await store.listTopicRequests(), []);
      assert.deepEqual(await store.votesOf('first-article', 'someone'), { article: 0, comments: {} });
    });

    test('keeps comments per article, oldest first, with ids, dates and a zero score', async (t) => {
      const store = await freshStore(t);
      const first = await store.insertComment(newComment('one', 'First'));
      const reply = await store.insertComment(newComment('one', 'Reply', first.id));
      const elsewhere = await store.insertComment(newComment('two', 'Elsewhere'));
      assert.match(first.id, /^[\w-]{12,}$/);
      assert.notEqual(first.id, reply.id);
      assert.equal(new Date(first.createdAt).toISOString(), first.createdAt);
      assert.deepEqual(
        { ...first, id: 'x', createdAt: 'x' },
        { ...newComment('one', 'First'), id: 'x', createdAt: 'x', score: 0, deletedAt: null },
      );
      assert.deepEqual(await store.listComments('one'), [first, reply]);
      assert.deepEqual(await store.listComments('two'), [elsewhere]);
      assert.deepEqual(await store.getComment('one', reply.id), reply);
      assert.equal(await store.getComment('two', reply.id), null, 'a comment belongs to its own article only');
    });

    test("a reader's newest comment is found on any article, also after a reopen", async () => {
      const place = await harness.fresh();
      const store = await harness.open(place);
      assert.equal(await store.latestCommentBy('hash-1'), null);
      await store.insertComment(newComment('one', 'First'));
      const other = await store.insertComment({ ...newComment('one', 'Not theirs'), authorHash: 'hash-2' });
      const newest = await store.insertComment(newComment('two', 'Second, elsewhere'));
      assert.deepEqual(await store.latestCommentBy('hash-1'), newest);
      assert.deepEqual(await store.latestCommentBy('hash-2'), other);
      // Asked at once (on PostgreSQL, one query for all four calls), each reader still gets their own.
      assert.deepEqual(await Promise.all(['nobody', 'hash-2', 'hash-1', 'hash-2'].map((hash) => store.latestCommentBy(hash))), [
        null,
        other,
        newest,
        other,
      ]);
      await store.close();
      const reopened = await harness.open(place);
      try {
        assert.deepEqual(await reopened.latestCommentBy('hash-1'), newest);
        assert.equal(await reopened.latestCommentBy('nobody'), null);
      } finally {
        await reopened.close();
      }
    });

    test('votes toggle through decide, move scores, and show in votesOf', async (t) => {
      const store = await freshStore(t);
      const comment = await store.insertComment(newComment('voted'));
      const onArticle = { articleSlug: 'voted', commentId: null };
      const onComment = { articleSlug: 'voted', commentId: comment.id };

      assert.deepEqual(await store.applyVote(onArticle, 'ann', (current) => nextVote(current, 1)), { score: 1, vote: 1 });
      assert.deepEqual(await store.applyVote(onArticle, 'bob', (current) => nextVote(current, -1)), { score: 0, vote: -1 });
      assert.deepEqual(await store.applyVote(onArticle, 'bob', (current) => nextVote(current, 1)), { score: 2, vote: 1 }, 'switched');
      assert.deepEqual(await store.applyVote(onArticle, 'bob', (current) => nextVote(current, 1)), { score: 1, vote: 0 }, 'removed');
      assert.deepEqual(await store.applyVote(onComment, 'ann', (current) => nextVote(current, -1)), { score: -1, vote: -1 });

      assert.equal((await store.getComment('voted', comment.id))?.score, -1);
      assert.equal(await store.articleScore('voted'), 1, 'the article’s own score, apart from its comments’');
      assert.equal(await store.articleScore('never-voted'), 0);
      assert.deepEqual(await store.votesOf('voted', 'ann'), { article: 1, comments: { [comment.id]: -1 } });
      assert.deepEqual(await store.votesOf('voted', 'bob'), { article: 0, comments: {} });
      assert.equal(await store.applyVote({ articleSlug: 'voted', commentId: 'missing' }, 'ann', () => 1), null);
      assert.equal(await store.applyVote({ articleSlug: 'never-written', commentId: 'missing' }, 'ann', () => 1), null);
    });

    test('two votes of one voter at once are decided one after the other', async (t) => {
      const store = await freshStore(t);
      const target = { articleSlug: 'clicked-twice', commentId: null };
      const answers = await Promise.all([1, 2].map(() => store.applyVote(target, 'ann', (current) => nextVote(current, 1))));
      // One is cast and the other removes it; an engine may take them in either order.
      assert.deepEqual(
        [...answers].sort((a, b) => (a?.vote ?? 0) - (b?.vote ?? 0)),
        [
          { score: 0, vote: 0 },
          { score: 1, vote: 1 },
        ],
      );
      assert.deepEqual(await store.votesOf('clicked-twice', 'ann'), { article: 0, comments: {} });
    });

    test('1000 voters voting at once on one article give a score of exactly 1000, kept after a reopen', async () => {
      const place = await harness.fresh();
      const store = await harness.open(place);
      const target = { articleSlug: 'popular', commentId: null };
      const answers = await Promise.all(
        Array.from({ length: 1000 }, (_, index) => store.applyVote(target, `voter-${index}`, (current) => nextVote(current, 1))),
      );
      assert.ok(answers.every((answer) => answer?.vote === 1));
      assert.equal(Math.max(...answers.map((answer) => answer?.score ?? 0)), 1000);
      await store.close();
      const reopened = await harness.open(place);
      try {
        assert.deepEqual(await reopened.applyVote(target, 'observer', (current) => current), { score: 1000, vote: 0 });
      } finally {
        await reopened.close();
      }
    });

    test('lists topic requests newest first, stored pending', async (t) => {
      const store = await freshStore(t);
      const older = await store.insertTopicRequest({ requestTitle: 'Older', details: null, authorHash: 'h' });
      const newer = await store.insertTopicRequest({ requestTitle: 'Newer', details: 'More', authorHash: 'h' });
      assert.equal(older.status, 'pending');
      assert.equal(older.answerUrl, null);
      assert.deepEqual(await store.listTopicRequests(), [newer, older]);
    });

    test('stores bug reports and city submissions with an id and a date', async (t) => {
      const store = await freshStore(t);
      const report = await store.insertBugReport({ description: 'Broken link', pagePath: '/about', authorHash: 'h' });
      assert.deepEqual(
        { ...report, id: 'x', createdAt: 'x' },
        { description: 'Broken link', pagePath: '/about', authorHash: 'h', id: 'x', createdAt: 'x', reviewedAt: null },
      );
      const submission = await store.insertCitySubmission(PARIS_SUBMISSION);
      assert.notEqual(submission.id, report.id);
      assert.equal(new Date(submission.createdAt).toISOString(), submission.createdAt);
      assert.deepEqual({ ...submission, id: 'x', createdAt: 'x' }, { ...PARIS_SUBMISSION, id: 'x', createdAt: 'x', reviewedAt: null });
    });

    test('a revision changes with what it covers, and only then', async (t) => {
      const store = await freshStore(t);
      const thread = await store.revision('thread:watched');
      const requests = await store.revision('topic-requests');
      const threads = await store.revision('threads');
      const comment = await store.insertComment(newComment('watched'));
      const afterComment = await store.revision('thread:watched');
      assert.notEqual(afterComment, thread, 'a comment changes its thread');
      assert.equal(await store.revision('topic-requests'), requests);
      const threadsAfterComment = await store.revision('threads');
      assert.notEqual(threadsAfterComment, threads, 'and every thread');
      await store.applyVote({ articleSlug: 'watched', commentId: comment.id }, 'ann', () => 1);
      const afterVote = await store.revision('thread:watched');
      assert.notEqual(afterVote, afterComment, 'a vote changes the scores it shows');
      const threadsAfterVote = await store.revision('threads');
      assert.notEqual(threadsAfterVote, threadsAfterComment);
      await store.insertComment(newComment('elsewhere'));
      assert.equal(await store.revision('thread:watched'), afterVote, 'another article leaves it as it is');
      const threadsAfterElsewhere = await store.revision('threads');
      assert.notEqual(threadsAfterElsewhere, threadsAfterVote, 'but not every thread');
      await store.insertTopicRequest({ requestTitle: 'Night trains', details: null, authorHash: 'h' });
      assert.notEqual(await store.revision('topic-requests'), requests);
      assert.equal(await store.revision('thread:watched'), afterVote);
      assert.equal(await store.revision('threads'), threadsAfterElsewhere, 'a topic request is no thread');
    });

    test('after close and reopen everything is there', async () => {
      const place = await harness.fresh();
      const store = await harness.open(place);
      const comment = await store.insertComment(newComment('kept'));
      await store.applyVote({ articleSlug: 'kept', commentId: comment.id }, 'ann', () => 1);
      await store.applyVote({ articleSlug: 'kept', commentId: null }, 'bob', () => -1);
      const request = await store.insertTopicRequest({ requestTitle: 'Plain text', details: null, authorHash: 'h' });
      await store.close();

      const reopened = await harness.open(place);
      try {
        assert.deepEqual(await reopened.listComments('kept'), [{ ...comment, score: 1 }]);
        assert.deepEqual(await reopened.votesOf('kept', 'ann'), { article: 0, comments: { [comment.id]: 1 } });
        assert.deepEqual(await reopened.applyVote({ articleSlug: 'kept', commentId: null }, 'carl', (current) => current), {
          score: -1,
          vote: 0,
        });
        assert.deepEqual(await reopened.listTopicRequests(), [request]);
      } finally {
        await reopened.close();
      }
    });
    test('keeps one salt, made the first time, also when asked twice at once and after a reopen', async () => {
      const place = await harness.fresh();
      const store = await harness.open(place);
      let made = 0;
      const make = () => `salt-${++made}-${'x'.repeat(40)}`;
      const [first, second] = await Promise.all([store.keptSalt(make), store.keptSalt(make)]);
      assert.equal(first, second);
      assert.equal(await store.keptSalt(make), first);
      await store.close();
      const reopened = await harness.open(place);
      try {
        assert.equal(await reopened.keptSalt(make), first);
      } finally {
        await reopened.close();
      }
    });

    test('a deleted comment keeps its place and its replies, loses its text, and takes no vote', async (t) => {
      const store = await freshStore(t);
      const parent = await store.insertComment(newComment('pruned', 'Something rude'));
      const reply = await store.insertComment(newComment('pruned', 'A fair answer', parent.id));
      const before = await store.revision('thread:pruned');
      const deleted = await store.deleteComment(parent.id);
      assert.ok(deleted?.deletedAt, 'marked with a date');
      assert.equal(new Date(deleted.deletedAt).toISOString(), deleted.deletedAt);
      assert.deepEqual(await store.listComments('pruned'), [{ ...parent, body: '', deletedAt: deleted.deletedAt }, reply]);
      assert.notEqual(await store.revision('thread:pruned'), before, 'the thread shows the placeholder at once');
      assert.equal(await store.applyVote({ articleSlug: 'pruned', commentId: parent.id }, 'ann', () => 1), null);
      assert.deepEqual(await store.applyVote({ articleSlug: 'pruned', commentId: reply.id }, 'ann', () => 1), { score: 1, vote: 1 });
      assert.equal(await store.deleteComment('no-such-comment'), null);
      assert.equal((await store.stats()).deletedComments, 1);
    });

    test('the review queue lists what waits, oldest first, and the owner answers, declines and marks reviewed', async (t) => {
      const store = await freshStore(t);
      const first = await store.insertTopicRequest({ requestTitle: 'Night trains', details: null, authorHash: 'h' });
      const second = await store.insertTopicRequest({ requestTitle: 'Rent in Lyon', details: null, authorHash: 'h' });
      const third = await store.insertTopicRequest({ requestTitle: 'Spam', details: null, authorHash: 'h' });
      const report = await store.insertBugReport({ description: 'Broken link', pagePath: null, authorHash: 'h' });
      const submission = await store.insertCitySubmission(PARIS_SUBMISSION);
      const queue = await store.reviewQueue();
      assert.deepEqual(
        queue.topicRequests.map((request) => request.id),
        [first.id, second.id, third.id],
      );
      assert.deepEqual(queue.bugReports, [report]);
      assert.deepEqual(queue.citySubmissions, [submission]);

      const before = await store.revision('topic-requests');
      const answered = await store.answerTopicRequest(first.id, {
        status: 'answered',
        answerUrl: 'https://example.org/articles/night-trains',
      });
      assert.deepEqual(answered, { ...first, status: 'answered', answerUrl: 'https://example.org/articles/night-trains' });
      assert.notEqual(await store.revision('topic-requests'), before, '/answers shows it at once');
      assert.equal((await store.answerTopicRequest(third.id, { status: 'declined' }))?.status, 'declined');
      assert.equal(await store.answerTopicRequest('missing', { status: 'declined' }), null);
      assert.equal(await store.markReviewed('bugReport', report.id), true);
      assert.equal(await store.markReviewed('citySubmission', submission.id), true);
      assert.equal(await store.markReviewed('bugReport', 'missing'), false);

      assert.deepEqual(await store.reviewQueue(), { comments: [], topicRequests: [second], bugReports: [], citySubmissions: [] });
      const listed = await store.listTopicRequests();
      assert.deepEqual(
        listed.map((request) => [request.requestTitle, request.status, request.answerUrl]),
        [
          ['Spam', 'declined', null],
          ['Rent in Lyon', 'pending', null],
          ['Night trains', 'answered', 'https://example.org/articles/night-trains'],
        ],
      );
      const stats = await store.stats();
      assert.deepEqual(stats.topicRequests, { waiting: 0, pending: 1, answered: 1, declined: 1 });
      assert.deepEqual(stats.bugReports, { total: 1, pending: 0 });
    });

    test('a pending comment is kept but listed nowhere a reader looks, and takes no reply and no vote', async (t) => {
      const store = await freshStore(t);
      const shown = await store.insertComment(newComment('held', 'Shown'));
      const held = await store.insertComment({ ...newComment('held', 'Held'), authorHash: 'hash-new', status: 'pending' });
      assert.equal(held.status, 'pending');
      assert.deepEqual(await store.listComments('held'), [shown]);
      assert.deepEqual(await store.getComment('held', held.id), held);
      assert.deepEqual(await store.findComment(held.id), held);
      assert.deepEqual(await store.findComment(shown.id), shown);
      assert.equal(await store.findComment('no-such-comment'), null);
      assert.equal(await store.applyVote({ articleSlug: 'held', commentId: held.id }, 'ann', () => 1), null);
      assert.deepEqual((await store.reviewQueue()).comments, [held]);
      assert.equal((await store.stats()).pendingComments, 1);
      assert.equal(await store.everPublished('hash-new'), false);
      assert.equal(await store.everPublished('hash-1'), true);
    });

    test('approving publishes a pending comment where it was written, and its writer has been published since', async () => {
      const place = await harness.fresh();
      const store = await harness.open(place);
      const earlier = await store.insertComment(newComment('approved', 'Earlier'));
      const held = await store.insertComment({ ...newComment('approved', 'Held'), authorHash: 'hash-new', status: 'pending' });
      const later = await store.insertComment(newComment('approved', 'Later'));
      const before = await store.revision('thread:approved');
      const approved = await store.approveComment(held.id);
      assert.deepEqual(approved, { ...held, status: 'published' });
      assert.notEqual(await store.revision('thread:approved'), before, 'the thread shows it at once');
      assert.deepEqual(await store.listComments('approved'), [earlier, { ...held, status: 'published' }, later]);
      assert.equal(await store.approveComment(held.id), null, 'no longer pending');
      assert.equal(await store.approveComment(earlier.id), null, 'never pending');
      assert.equal(await store.everPublished('hash-new'), true);
      assert.deepEqual((await store.reviewQueue()).comments, []);
      await store.deleteComment(held.id);
      assert.equal(await store.everPublished('hash-new'), true, 'a deletion does not undo it');
      await store.close();
      const reopened = await harness.open(place);
      try {
        assert.equal(await reopened.everPublished('hash-new'), true, 'kept after a reopen');
        assert.equal((await reopened.findComment(held.id))?.status, 'published');
      } finally {
        await reopened.close();
      }
    });

    test('rejecting removes a pending comment outright, and only a pending one', async () => {
      const place = await harness.fresh();
      const store = await harness.open(place);
      const shown = await store.insertComment(newComment('rejected', 'Shown'));
      const held = await store.insertComment({ ...newComment('rejected', 'Spam'), authorHash: 'hash-spam', status: 'pending' });
      const kept = await store.insertComment({ ...newComment('rejected', 'Waits on'), authorHash: 'hash-new', status: 'pending' });
      assert.deepEqual(await store.removePendingComment(held.id), held);
      assert.equal(await store.removePendingComment(held.id), null, 'gone');
      assert.equal(await store.removePendingComment(shown.id), null, 'a published comment is deleted, not removed');
      assert.equal(await store.findComment(held.id), null);
      assert.equal(await store.getComment('rejected', held.id), null);
      assert.equal(await store.everPublished('hash-spam'), false);
      assert.deepEqual(await store.listComments('rejected'), [shown]);
      await store.close();
      const reopened = await harness.open(place);
      try {
        assert.equal(await reopened.findComment(held.id), null, 'still gone after a reopen');
        assert.deepEqual((await reopened.reviewQueue()).comments, [kept]);
        assert.equal((await reopened.stats()).comments, 2);
      } finally {
        await reopened.close();
      }
    });

    test('a ban holds until the unban, and readers are found by the name shown', async (t) => {
      const store = await freshStore(t);
      await store.insertComment({ ...newComment('named'), author: 'Teal heron', authorHash: 'hash-heron' });
      await store.insertComment({ ...newComment('named'), author: 'Amber otter', authorHash: 'hash-otter' });
      assert.deepEqual(await store.readersNamed('Teal heron'), ['hash-heron']);
      assert.deepEqual(await store.readersNamed('Nobody here'), []);
      assert.equal(await store.isBanned('hash-heron'), false);
      assert.equal(await store.setBan('hash-heron', true), true);
      assert.equal(await store.setBan('hash-heron', true), false, 'already banned');
      assert.equal(await store.isBanned('hash-heron'), true);
      assert.equal(await store.isBanned('hash-otter'), false);
      assert.equal((await store.stats()).bans, 1);
      assert.equal(await store.setBan('hash-heron', false), true);
      assert.equal(await store.isBanned('hash-heron'), false);
    });

    test('a waiting topic request is listed nowhere a reader looks until approved; removed, it is gone', async (t) => {
      const store = await freshStore(t);
      const listed = await store.insertTopicRequest({ requestTitle: 'Listed', details: null, authorHash: 'h-1' });
      assert.equal(listed.status, 'pending');
      const revision = await store.revision('topic-requests');
      const waiting = await store.insertTopicRequest({ requestTitle: 'Waits', details: 'Links', authorHash: 'h-2', status: 'waiting' });
      const spam = await store.insertTopicRequest({ requestTitle: 'Spam', details: null, authorHash: 'h-3', status: 'waiting' });
      assert.equal(waiting.status, 'waiting');
      assert.deepEqual(await store.listTopicRequests(), [listed]);
      assert.deepEqual(
        (await store.reviewQueue()).topicRequests.map(({ id, status }) => [id, status]),
        [
          [listed.id, 'pending'],
          [waiting.id, 'waiting'],
          [spam.id, 'waiting'],
        ],
      );
      assert.deepEqual((await store.stats()).topicRequests, { waiting: 2, pending: 1, answered: 0, declined: 0 });

      assert.deepEqual(await store.moderateTopicRequest(waiting.id, 'approve'), { ...waiting, status: 'pending' });
      assert.notEqual(await store.revision('topic-requests'), revision, 'the list readers see changed');
      assert.deepEqual(await store.listTopicRequests(), [{ ...waiting, status: 'pending' }, listed]);
      assert.equal(await store.moderateTopicRequest(waiting.id, 'approve'), null, 'only a waiting one is approved');
      assert.equal(await store.moderateTopicRequest(listed.id, 'remove'), null, 'only a waiting one is removed');

      assert.deepEqual(await store.moderateTopicRequest(spam.id, 'remove'), spam);
      assert.equal(await store.moderateTopicRequest(spam.id, 'approve'), null, 'removed outright');
      assert.deepEqual(
        (await store.reviewQueue()).topicRequests.map(({ id }) => id),
        [listed.id, waiting.id],
      );
      assert.deepEqual((await store.stats()).topicRequests, { waiting: 0, pending: 2, answered: 0, declined: 0 });
    });

    test('a moderation link is spent once, by one of two callers at once, for good across a reopen, until it expires', async () => {
      const place = await harness.fresh();
      const store = await harness.open(place);
      const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const link = { link: 'ban~1900000000~comment-1', expiresAt: inAWeek };
      assert.equal(await store.linkSpent(link.link), false);
      const spent = await Promise.all([store.spendLink(link), store.spendLink(link)]);
      assert.deepEqual(spent.sort(), [false, true], 'one caller spends it, the other finds it spent');
      assert.equal(await store.linkSpent(link.link), true);
      assert.equal(await store.linkSpent('ban~1900000000~comment-2'), false, 'another link is not spent');
      const expired = { link: 'approve~1~comment-1', expiresAt: new Date(Date.now() - 1000).toISOString() };
      assert.equal(await store.spendLink(expired), true);
      await store.close();

      const reopened = await harness.open(place);
      try {
        assert.equal(await reopened.linkSpent(link.link), true);
        assert.equal(await reopened.spendLink(link), false, 'still spent after a reopen');
        assert.equal(await reopened.spendLink({ link: 'delete~1900000000~comment-1', expiresAt: inAWeek }), true);
        assert.equal(await reopened.linkSpent(expired.link), false, 'an expired link’s record is dropped by a later spend');
        assert.equal(await reopened.linkSpent(link.link), true);
      } finally {
        await reopened.close();
      }
    });

    test("the desk's list: the newest comments across articles, by article, by reader, page by page", async (t) => {
      const store = await freshStore(t);
      const written: string[] = [];
      for (const [slug, hash] of [
        ['one', 'h-a'],
        ['two', 'h-b'],
        ['one', 'h-b'],
        ['three', 'h-a'],
        ['two', 'h-a'],
      ] as const) {
        written.push((await store.insertComment({ ...newComment(slug), authorHash: hash })).id);
        // Each comment in its own millisecond, so that "before" cuts between them.
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      const ids = (comments: readonly { id: string }[]) => comments.map(({ id }) => id);
      assert.deepEqual(ids(await store.recentComments({}, 3)), [written[4], written[3], written[2]]);
      assert.deepEqual(ids(await store.recentComments({ articleSlug: 'one' }, 10)), [written[2], written[0]]);
      assert.deepEqual(ids(await store.recentComments({ authorHash: 'h-b' }, 10)), [written[2], written[1]]);
      const third = (await store.recentComments({}, 3))[2];
      assert.deepEqual(ids(await store.recentComments({ before: third?.createdAt ?? '' }, 10)), [written[1], written[0]]);
      assert.deepEqual(await store.recentComments({ articleSlug: 'none' }, 10), []);
      await store.deleteComment(written[0] ?? '');
      assert.equal(
        (await store.recentComments({ articleSlug: 'one' }, 10))[1]?.deletedAt !== null,
        true,
        'deleted ones are listed, marked',
      );
      const held = await store.insertComment({ ...newComment('two'), authorHash: 'h-c', status: 'pending' });
      assert.deepEqual(ids(await store.recentComments({ waiting: true }, 10)), [held.id], 'only those waiting');
      assert.deepEqual(ids(await store.recentComments({}, 1)), [held.id], 'listed with the others');
      await store.approveComment(held.id);
      assert.deepEqual(await store.recentComments({ waiting: true }, 10), []);
    });

    test("a feed's newest comments: of the threads asked for, newest first, published and not deleted, after a reopen too", async (t) => {
      const place = await harness.fresh();
      const store = await harness.open(place);
      const written: string[] = [];
      for (const slug of ['one', 'two', 'one', 'three', 'two', 'one']) {
        written.push((await store.insertComment(newComment(slug, `On ${slug}`))).id);
        // Each comment in its own millisecond, so that the order is the order written.
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      const ids = (comments: readonly { id: string }[]) => comments.map(({ id }) => id);
      assert.deepEqual(ids(await store.latestComments(['one', 'two', 'three'], 3)), [written[5], written[4], written[3]]);
      assert.deepEqual(ids(await store.latestComments(['one', 'three'], 10)), [written[5], written[3], written[2], written[0]]);
      assert.deepEqual(await store.latestComments(['none'], 10), []);
      assert.deepEqual(await store.latestComments([], 10), []);
      await store.deleteComment(written[5] ?? '');
      const held = await store.insertComment({ ...newComment('two'), authorHash: 'hash-new', status: 'pending' });
      assert.deepEqual(
        ids(await store.latestComments(['one', 'two', 'three'], 2)),
        [written[4], written[3]],
        'neither deleted nor waiting',
      );
      await store.approveComment(held.id);
      await store.close();

      const reopened = await harness.open(place);
      t.after(() => reopened.close());
      assert.deepEqual(ids(await reopened.latestComments(['one', 'two', 'three'], 2)), [held.id, written[4]], 'approved: listed');
      assert.deepEqual(ids(await reopened.latestComments(['one'], 10)), [written[2], written[0]]);
    });

    test('an export imported into a fresh store gives the same store, and importing it twice changes nothing', async (t) => {
      const source = await freshStore(t);
      await source.keptSalt(() => 's'.repeat(43));
      const parent = await source.insertComment(newComment('moved', 'Parent'));
      const reply = await source.insertComment(newComment('moved', 'Reply', parent.id));
      const gone = await source.insertComment(newComment('moved', 'Gone'));
      await source.deleteComment(gone.id);
      const waiting = await source.insertComment({ ...newComment('moved', 'Waits'), authorHash: 'hash-new', status: 'pending' });
      await source.applyVote({ articleSlug: 'moved', commentId: parent.id }, 'ann', () => 1);
      await source.applyVote({ articleSlug: 'moved', commentId: parent.id }, 'bob', () => 1);
      await source.applyVote({ articleSlug: 'moved', commentId: reply.id }, 'ann', () => -1);
      await source.applyVote({ articleSlug: 'moved', commentId: null }, 'carl', () => 1);
      await source.applyVote({ articleSlug: 'moved', commentId: null }, 'dora', () => 1);
      await source.applyVote({ articleSlug: 'moved', commentId: null }, 'dora', () => 0);
      const request = await source.insertTopicRequest({ requestTitle: 'Ferries', details: 'Which ones', authorHash: 'h' });
      await source.answerTopicRequest(request.id, { status: 'declined' });
      await source.insertTopicRequest({ requestTitle: 'Waiting ferries', details: null, authorHash: 'h', status: 'waiting' });
      await source.insertBugReport({ description: 'Typo', pagePath: '/fr', authorHash: 'h' });
      await source.insertCitySubmission(PARIS_SUBMISSION);
      await source.setBan('hash-troll', true);
      const spentLink = { link: `ban~1900000000~${parent.id}`, expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
      await source.spendLink(spentLink);

      const exported = await collect(source.exportRecords());
      assert.deepEqual(
        exported.map((record) => record.kind),
        [
          'salt',
          'comment',
          'comment',
          'comment',
          'comment',
          'vote',
          'vote',
          'vote',
          'vote',
          'topicRequest',
          'topicRequest',
          'bugReport',
          'citySubmission',
          'ban',
          'spentLink',
        ],
      );
      assert.ok(
        exported.some((record) => record.kind === 'comment' && record.comment.id === waiting.id && record.comment.status === 'pending'),
      );
      const target = await freshStore(t);
      assert.deepEqual(await target.importRecords(replay(exported)), { added: exported.length, skipped: 0 });
      assert.deepEqual(await target.importRecords(replay(exported)), { added: 0, skipped: exported.length });

      assert.deepEqual(await target.listComments('moved'), await source.listComments('moved'));
      assert.equal(await target.articleScore('moved'), 1);
      assert.deepEqual(await target.votesOf('moved', 'ann'), await source.votesOf('moved', 'ann'));
      assert.deepEqual(await target.listTopicRequests(), await source.listTopicRequests());
      assert.deepEqual(await target.reviewQueue(), await source.reviewQueue());
      assert.deepEqual(
        (await target.reviewQueue()).comments.map((comment) => comment.id),
        [waiting.id],
        'a pending comment stays pending',
      );
      assert.equal(await target.everPublished('hash-new'), false);
      assert.equal(await target.everPublished('hash-1'), true);
      assert.equal(await target.isBanned('hash-troll'), true);
      assert.equal(await target.spendLink(spentLink), false, 'a spent link stays spent in the store it moves to');
      assert.equal(await target.keptSalt(() => 'another'), 's'.repeat(43));
      assert.deepEqual(await target.stats(), await source.stats());
      assert.deepEqual(sortedRecords(await collect(target.exportRecords())), sortedRecords(exported));
    });
  });
}

async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const record of records) list.push(record);
  return list;
}

/** Records as an import reads them: one at a time, asynchronously. */
export async function* replay<T>(records: T[]): AsyncGenerator<T> {
  for (const record of records) yield await Promise.resolve(record);
}

/** Records in an order that does not depend on the engine (votes come out in an engine's own order). */
function sortedRecords(records: ExportRecord[]): string[] {
  return records.map((record) => JSON.stringify(record)).sort();
}
