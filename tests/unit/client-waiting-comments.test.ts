import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { withBrowserStorage } from '../support/browser-storage.ts';
import {
  forgetWaiting,
  rememberWaiting,
  stillKept,
  waitingFrom,
  waitingOn,
  type WaitingComment,
} from '../../src/site/client/waiting-comments.ts';

const DAY = 24 * 3600 * 1000;
const NOW = Date.parse('2026-05-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

/** A comment the API answered `pending`, as its answer says it. */
function pending(id: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, articleSlug: 'plain-text', parentId: null, body: `Text of ${id}`, createdAt: ago(60_000), status: 'pending', ...fields };
}

describe('what is kept of a waiting comment', () => {
  test('its id, article, parent, text and date, nothing else of the answer', () => {
    assert.deepEqual(waitingFrom(pending('c1', { parentId: 'c0', score: 0, author: 'Someone' })), {
      id: 'c1',
      articleSlug: 'plain-text',
      parentId: 'c0',
      body: 'Text of c1',
      createdAt: ago(60_000),
    });
  });

  test('a comment that is no reply has a null parent', () => {
    assert.equal(waitingFrom(pending('c1', { parentId: undefined }))?.parentId, null);
  });

  test('an answer that does not describe a comment is not kept', () => {
    assert.equal(waitingFrom({ status: 'pending' }), null);
    assert.equal(waitingFrom(pending('c1', { body: 42 })), null);
    assert.equal(waitingFrom(pending('c1', { createdAt: undefined })), null);
  });
});

describe('how long a waiting comment is kept', () => {
  const comment = (id: string, age: number): WaitingComment => ({ id, articleSlug: 'a', parentId: null, body: '', createdAt: ago(age) });

  test('thirty days from when it was written, in the order kept', () => {
    const kept = stillKept([comment('new', 0), comment('old', 31 * DAY), comment('month', 29 * DAY), comment('edge', 30 * DAY)], NOW);
    assert.deepEqual(
      kept.map(({ id }) => id),
      ['new', 'month'],
    );
  });
});

describe('the waiting comments kept in the browser', () => {
  const storage = withBrowserStorage(NOW);

  test('each article shows its own, oldest first, until the thread shows one and it is forgotten', () => {
    rememberWaiting(pending('c1'));
    rememberWaiting(pending('c2', { articleSlug: 'other' }));
    rememberWaiting(pending('c3', { parentId: 'c1' }));
    rememberWaiting({ error: 'not a comment' });
    assert.deepEqual(
      waitingOn('plain-text').map(({ id }) => id),
      ['c1', 'c3'],
    );
    forgetWaiting('c1');
    assert.deepEqual(
      waitingOn('plain-text').map(({ id }) => id),
      ['c3'],
    );
    assert.deepEqual(
      waitingOn('other').map(({ id }) => id),
      ['c2'],
    );
  });

  test('one kept too long is forgotten for good the next time the thread asks', () => {
    rememberWaiting(pending('fresh'));
    rememberWaiting(pending('stale', { createdAt: ago(31 * DAY) }));
    assert.deepEqual(
      waitingOn('plain-text').map(({ id }) => id),
      ['fresh'],
    );
    assert.doesNotMatch([...storage.stored.values()].join(), /stale/);
    mock.timers.tick(30 * DAY);
    assert.deepEqual(waitingOn('plain-text'), [], 'thirty days on, the fresh one too');
  });

  test('storage that refuses, or holds what was altered by hand, keeps nothing and breaks nothing', () => {
    storage.stored.set('longhand.waitingComments', '{not json');
    assert.deepEqual(waitingOn('plain-text'), []);
    storage.stored.set('longhand.waitingComments', '{"id":"c1"}');
    assert.deepEqual(waitingOn('plain-text'), []);
    Object.assign(globalThis, {
      localStorage: {
        getItem: () => {
          throw new Error('SecurityError');
        },
        setItem: () => {
          throw new Error('QuotaExceededError');
        },
      },
    });
    assert.doesNotThrow(() => {
      rememberWaiting(pending('c1'));
    });
    assert.deepEqual(waitingOn('plain-text'), []);
  });
});
