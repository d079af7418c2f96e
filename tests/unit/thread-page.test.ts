import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredComment } from '../../src/server/store/types.ts';
import { threadPage } from '../../src/server/threads/thread-page.ts';

function stored(
  id: string,
  parentId: string | null,
  depth: number,
  deletedAt: string | null = null,
): StoredComment & { deletedAt: string | null } {
  return {
    id,
    articleSlug: 'a-slug',
    parentId,
    depth,
    author: `Teal Otter ${id}`,
    authorHash: `hash-${id}`,
    body: deletedAt === null ? `text of ${id}` : '',
    createdAt: '2026-01-02T03:04:05.000Z',
    score: deletedAt === null ? 2 : 0,
    deletedAt,
    status: 'published',
  };
}

/** A store holding these comments (oldest first, as listComments gives them). */
function storeOf(comments: StoredComment[]) {
  return {
    revision: () => Promise.resolve('r1'),
    listComments: () => Promise.resolve(comments),
    articleScore: () => Promise.resolve(0),
    reactionCounts: () => Promise.resolve({ likes: 0, boosts: 0 }),
    mentionsOf: () => Promise.resolve([]),
  };
}

test('a deleted comment keeps its place and its replies, with no author, body, score or reply', async () => {
  const view = await threadPage(
    storeOf([stored('c1', null, 1, '2026-01-03T00:00:00.000Z'), stored('c2', 'c1', 2), stored('c3', null, 1)]),
    'a-slug',
    1,
  );
  assert.deepEqual(
    view.comments.map((comment) => comment.id),
    ['c3', 'c1'],
  );
  const deleted = view.comments[1];
  assert.ok(deleted);
  assert.equal(deleted.deleted, true);
  assert.equal(deleted.author, '');
  assert.equal(deleted.body, '');
  assert.equal(deleted.canReply, false);
  assert.deepEqual(
    deleted.replies.map((reply) => [reply.id, reply.deleted, reply.canReply]),
    [['c2', false, true]],
  );
  assert.ok(!('authorHash' in deleted));
});

test('a long thread is cut in pages of top-level comments, newest first, replies staying with theirs', async () => {
  const comments = Array.from({ length: 65 }, (_, index) => stored(`c${index}`, null, 1));
  comments.push(stored('reply', 'c0', 2));
  const first = await threadPage(storeOf(comments), 'a-slug', 1);
  assert.equal(first.topLevelCount, 65);
  assert.equal(first.comments.length, 30);
  assert.equal(first.comments[0]?.id, 'c64');
  assert.equal(first.nextPage, 2);
  const last = await threadPage(storeOf(comments), 'a-slug', 3);
  assert.deepEqual(
    last.comments.map((comment) => comment.id),
    ['c4', 'c3', 'c2', 'c1', 'c0'],
  );
  assert.equal(last.comments.at(-1)?.replies[0]?.id, 'reply');
  assert.equal(last.nextPage, null);
});

test('a thread is read from the store once per revision: every page, every reader at once, and a page past the last', async () => {
  const comments = Array.from({ length: 65 }, (_, index) => stored(`c${index}`, null, 1));
  let revision = 'r1';
  let reads = 0;
  const store = {
    revision: () => Promise.resolve(revision),
    listComments: () => {
      reads += 1;
      return Promise.resolve(comments);
    },
    articleScore: () => Promise.resolve(7),
    reactionCounts: () => Promise.resolve({ likes: 2, boosts: 1 }),
    mentionsOf: () => Promise.resolve([]),
  };
  const pages = await Promise.all([1, 2, 3, 1, 2, 3].map((page) => threadPage(store, 'a-slug', page)));
  assert.equal(reads, 1);
  assert.deepEqual(
    pages.map((page) => page.comments.length),
    [30, 30, 5, 30, 30, 5],
  );
  const past = await threadPage(store, 'a-slug', 4000);
  assert.deepEqual(past, {
    revision: 'r1',
    articleScore: 7,
    reactions: { likes: 2, boosts: 1 },
    mentions: [],
    topLevelCount: 65,
    comments: [],
    nextPage: null,
  });
  assert.equal(reads, 1);

  comments.push(stored('new', null, 1));
  revision = 'r2';
  const first = await threadPage(store, 'a-slug', 1);
  assert.equal(reads, 2);
  assert.equal(first.revision, 'r2');
  assert.equal(first.comments[0]?.id, 'new');
  assert.equal(first.topLevelCount, 66);
  // Another thread of the same store is read on its own.
  await threadPage(store, 'another-slug', 1);
  assert.equal(reads, 3);
});

test('a thread with no comment is a first page with none, kept as any other', async () => {
  let reads = 0;
  const store = {
    revision: () => Promise.resolve('r1'),
    listComments: () => {
      reads += 1;
      return Promise.resolve([]);
    },
    articleScore: () => Promise.resolve(0),
    reactionCounts: () => Promise.resolve({ likes: 0, boosts: 0 }),
    mentionsOf: () => Promise.resolve([]),
  };
  for (const page of [1, 1, 2]) {
    const view = await threadPage(store, 'a-slug', page);
    assert.deepEqual(view.comments, []);
    assert.equal(view.topLevelCount, 0);
  }
  assert.equal(reads, 1);
});
