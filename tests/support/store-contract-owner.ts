/** The store contract on the owner's operations, spent links, feeds and transfer (store-contract.ts runs these). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collect, newComment, PARIS_SUBMISSION, replay, sortedRecords, type ContractStores } from './store-contract-kit.ts';

/** Deleted and pending comments, and the owner's review queue. */
export function deletionAndReview({ freshStore }: ContractStores): void {
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
}

/** Approving and rejecting pending comments, and bans. */
export function approvalAndBans({ harness, freshStore }: ContractStores): void {
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
}

/** Waiting topic requests and spent moderation links. */
export function waitingRequestsAndLinks({ harness, freshStore }: ContractStores): void {
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
}

/** The desk's list and a feed's newest comments. */
export function newestComments({ harness, freshStore }: ContractStores): void {
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
    assert.equal((await store.recentComments({ articleSlug: 'one' }, 10))[1]?.deletedAt !== null, true, 'deleted ones are listed, marked');
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
    assert.deepEqual(ids(await store.latestComments(['one', 'two', 'three'], 2)), [written[4], written[3]], 'neither deleted nor waiting');
    await store.approveComment(held.id);
    await store.close();

    const reopened = await harness.open(place);
    t.after(() => reopened.close());
    assert.deepEqual(ids(await reopened.latestComments(['one', 'two', 'three'], 2)), [held.id, written[4]], 'approved: listed');
    assert.deepEqual(ids(await reopened.latestComments(['one'], 10)), [written[2], written[0]]);
  });
}

/** Export and import. */
export function exportAndImport({ freshStore }: ContractStores): void {
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
}
