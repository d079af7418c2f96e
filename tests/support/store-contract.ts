import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nextVote } from '../../src/server/store/service.ts';
import type { CitySubmission, NewComment, StoreEngine } from '../../src/server/store/types.ts';

/**
 * What a store contract run needs from an engine: a fresh, empty place to
 * keep a store (a directory, a database), and a way to open the store kept
 * there, again after it was closed.
 */
export interface StoreHarness {
  fresh(): Promise<string>;
  open(place: string): Promise<StoreEngine>;
}

export function newComment(articleSlug: string, body = 'A thought.', parentId: string | null = null): NewComment {
  return { articleSlug, parentId, depth: parentId ? 2 : 1, author: 'Amber otter', authorHash: 'hash-1', body };
}

/** A city submission as the store receives it. */
export const PARIS_SUBMISSION: Omit<CitySubmission, 'id' | 'createdAt'> = {
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
      assert.deepEqual({ ...first, id: 'x', createdAt: 'x' }, { ...newComment('one', 'First'), id: 'x', createdAt: 'x', score: 0 });
      assert.deepEqual(await store.listComments('one'), [first, reply]);
      assert.deepEqual(await store.listComments('two'), [elsewhere]);
      assert.deepEqual(await store.getComment('one', reply.id), reply);
      assert.equal(await store.getComment('two', reply.id), null, 'a comment belongs to its own article only');
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
      assert.deepEqual(await store.listTopicRequests(), [newer, older]);
    });

    test('stores bug reports and city submissions with an id and a date', async (t) => {
      const store = await freshStore(t);
      const report = await store.insertBugReport({ description: 'Broken link', pagePath: '/about', authorHash: 'h' });
      assert.deepEqual(
        { ...report, id: 'x', createdAt: 'x' },
        { description: 'Broken link', pagePath: '/about', authorHash: 'h', id: 'x', createdAt: 'x' },
      );
      const submission = await store.insertCitySubmission(PARIS_SUBMISSION);
      assert.notEqual(submission.id, report.id);
      assert.equal(new Date(submission.createdAt).toISOString(), submission.createdAt);
      assert.deepEqual({ ...submission, id: 'x', createdAt: 'x' }, { ...PARIS_SUBMISSION, id: 'x', createdAt: 'x' });
    });

    test('a revision changes with what it covers, and only then', async (t) => {
      const store = await freshStore(t);
      const thread = await store.revision('thread:watched');
      const requests = await store.revision('topic-requests');
      const comment = await store.insertComment(newComment('watched'));
      const afterComment = await store.revision('thread:watched');
      assert.notEqual(afterComment, thread, 'a comment changes its thread');
      assert.equal(await store.revision('topic-requests'), requests);
      await store.applyVote({ articleSlug: 'watched', commentId: comment.id }, 'ann', () => 1);
      const afterVote = await store.revision('thread:watched');
      assert.notEqual(afterVote, afterComment, 'a vote changes the scores it shows');
      await store.insertComment(newComment('elsewhere'));
      assert.equal(await store.revision('thread:watched'), afterVote, 'another article leaves it as it is');
      await store.insertTopicRequest({ requestTitle: 'Night trains', details: null, authorHash: 'h' });
      assert.notEqual(await store.revision('topic-requests'), requests);
      assert.equal(await store.revision('thread:watched'), afterVote);
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
  });
}
