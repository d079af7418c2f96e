import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pressVote } from '../../src/site/client/votes.ts';

test('a first press votes, and the score moves by one', () => {
  assert.deepEqual(pressVote(0, 1, 4), { vote: 1, score: 5 });
  assert.deepEqual(pressVote(0, -1, 4), { vote: -1, score: 3 });
});

test('the same direction again removes the vote', () => {
  assert.deepEqual(pressVote(1, 1, 5), { vote: 0, score: 4 });
  assert.deepEqual(pressVote(-1, -1, 3), { vote: 0, score: 4 });
});

test('the other direction switches it, and the score moves by two', () => {
  assert.deepEqual(pressVote(1, -1, 5), { vote: -1, score: 3 });
  assert.deepEqual(pressVote(-1, 1, -2), { vote: 1, score: 0 });
});
