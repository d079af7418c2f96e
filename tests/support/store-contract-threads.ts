/** The store contract on threads, submissions, revisions and reopening (store-contract.ts runs these). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextVote } from '../../src/server/store/service.ts';
import { collect, newComment, PARIS_SUBMISSION, replay, type ContractStores } from './store-contract-kit.ts';

/** Comments and votes as readers write and read them. */
export function threadBasics({ harness, freshStore }: ContractStores): void {
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
      { ...newComment('one', 'First'), id: 'x', createdAt: 'x', score: 0, deletedAt: null, remote: null, imported: null },
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
}

/** Votes at once, topic requests, bug reports and city submissions. */
export function concurrentVotesAndSubmissions({ harness, freshStore }: ContractStores): void {
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
}

/** Revisions, and what a store keeps across a reopening: its records and its salt. */
export function revisionsAndReopening({ harness, freshStore }: ContractStores): void {
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
  test('an imported comment keeps its source and its author’s website through a reopen, an export and an import', async (t) => {
    const place = await harness.fresh();
    const store = await harness.open(place);
    const imported = { source: 'disqus', website: 'https://ann.example/' } as const;
    const comment = await store.insertComment({ ...newComment('moved', 'Years ago'), author: 'Ann Example', imported });
    const reader = await store.insertComment(newComment('moved', 'Today'));
    assert.deepEqual(comment.imported, imported);
    assert.equal(reader.imported, null, 'a reader’s comment is imported from nowhere');
    await store.close();
    const reopened = await harness.open(place);
    try {
      assert.deepEqual(await reopened.listComments('moved'), [comment, reader]);
      const exported = (await collect(reopened.exportRecords())).filter((record) => record.kind === 'comment');
      const target = await freshStore(t);
      assert.deepEqual(await target.importRecords(replay(exported)), { added: 2, skipped: 0 });
      assert.deepEqual(await target.listComments('moved'), [comment, reader]);
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
}
