import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { withBrowserStorage } from '../support/browser-storage.ts';
import { rememberWaitingTopic, waitingTopicFrom, waitingTopics } from '../../src/site/client/waiting-topics.ts';

const NOW = new Date('2026-05-01T12:00:00Z');
const DAY = 24 * 3600 * 1000;

describe('what is kept of a waiting topic request', () => {
  test('the id of an answer `waiting`, the title and details sent, and when', () => {
    assert.deepEqual(
      waitingTopicFrom(
        { ok: true, id: 't1', status: 'waiting' },
        { requestTitle: ' Night trains ', details: ' Which? ', formStamp: 'x' },
        NOW,
      ),
      { id: 't1', requestTitle: 'Night trains', details: 'Which?', createdAt: NOW.toISOString() },
    );
    assert.equal(waitingTopicFrom({ ok: true, id: 't1', status: 'waiting' }, { requestTitle: 'Trains' }, NOW)?.details, null);
  });

  test('a request listed at once, or an answer of another write, is not kept', () => {
    assert.equal(waitingTopicFrom({ ok: true, id: 't1', status: 'pending' }, { requestTitle: 'Trains' }, NOW), null);
    assert.equal(waitingTopicFrom({ ok: true, id: 't1' }, { description: 'A bug' }, NOW), null);
    assert.equal(waitingTopicFrom({ ok: true, status: 'waiting' }, { requestTitle: 'Trains' }, NOW), null);
  });
});

describe('the waiting topic requests kept in the browser', () => {
  withBrowserStorage(NOW.getTime());

  test('newest first, until the page lists one (approved), which is then forgotten; gone after 30 days', () => {
    for (const id of ['t1', 't2', 't3']) rememberWaitingTopic({ id, requestTitle: id, details: null, createdAt: new Date().toISOString() });
    assert.deepEqual(
      waitingTopics(new Set()).map(({ id }) => id),
      ['t3', 't2', 't1'],
    );
    assert.deepEqual(
      waitingTopics(new Set(['t2'])).map(({ id }) => id),
      ['t3', 't1'],
    );
    assert.deepEqual(
      waitingTopics(new Set()).map(({ id }) => id),
      ['t3', 't1'],
      'the listed one is forgotten',
    );
    mock.timers.tick(30 * DAY);
    assert.deepEqual(waitingTopics(new Set()), []);
  });
});
