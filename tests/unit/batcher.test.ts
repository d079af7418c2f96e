import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Batcher } from '../../src/server/store/postgres/batcher.ts';

/** A failure as the pg driver gives it: an Error with the SQLSTATE in `code`. */
function sqlError(code: string): Error {
  return Object.assign(new Error(`failed with ${code}`), { code });
}

/** Resolves after the event loop has turned: the batcher sends what came in meanwhile. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('a call alone goes at the next turn, by itself; calls made in one turn go together', async () => {
  const batches: number[][] = [];
  const batcher = new Batcher<number, number>(
    (items) => {
      batches.push(items);
      return Promise.resolve(items.map((item) => item * 2));
    },
    { maxItems: 10, concurrency: 2 },
  );
  assert.equal(await batcher.submit(1), 2);
  assert.deepEqual(await Promise.all([batcher.submit(2), batcher.submit(3), batcher.submit(4)]), [4, 6, 8]);
  assert.deepEqual(batches, [[1], [2, 3, 4]]);
});

test('calls that come in while every batch slot is busy wait and go together, at most maxItems a batch', async () => {
  const batches: number[][] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const batcher = new Batcher<number, number>(
    async (items) => {
      batches.push(items);
      if (items[0] === 0) await held;
      return items;
    },
    { maxItems: 3, concurrency: 1 },
  );
  const first = batcher.submit(0);
  await turn();
  const waiting = [1, 2, 3, 4, 5].map((item) => batcher.submit(item));
  await turn();
  assert.deepEqual(batches, [[0]], 'nothing goes while the one slot is taken');
  release();
  assert.deepEqual(await Promise.all([first, ...waiting]), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(batches, [[0], [1, 2, 3], [4, 5]]);
  await batcher.idle();
});

for (const [code, what] of [
  ['23503', 'breaks a constraint'],
  ['22021', "one call's data fails (a NUL in text)"],
] as const) {
  test(`a batch that ${what} is run again a call at a time: only the offending call fails`, async () => {
    const batches: string[][] = [];
    const batcher = new Batcher<string, string>(
      (items) => {
        batches.push(items);
        return items.includes('bad') ? Promise.reject(sqlError(code)) : Promise.resolve(items.map((item) => `${item} stored`));
      },
      { maxItems: 10, concurrency: 2 },
    );
    const results = await Promise.allSettled(['one', 'bad', 'two'].map((item) => batcher.submit(item)));
    assert.deepEqual(
      results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as { code: string }).code)),
      ['one stored', code, 'two stored'],
    );
    assert.deepEqual(batches, [['one', 'bad', 'two'], ['one'], ['bad'], ['two']]);
  });
}

test('a deadlock victim is run again once; any other failure fails every call at once, never retried', async () => {
  let runs = 0;
  const deadlockedOnce = new Batcher<number, number>(
    (items) => {
      runs += 1;
      return runs === 1 ? Promise.reject(sqlError('40P01')) : Promise.resolve(items);
    },
    { maxItems: 10, concurrency: 1 },
  );
  assert.deepEqual(await Promise.all([deadlockedOnce.submit(1), deadlockedOnce.submit(2)]), [1, 2]);
  assert.equal(runs, 2);

  let timedOutRuns = 0;
  const timingOut = new Batcher<number, number>(
    () => {
      timedOutRuns += 1;
      return Promise.reject(new Error('Query read timeout'));
    },
    { maxItems: 10, concurrency: 1 },
  );
  const results = await Promise.allSettled([timingOut.submit(1), timingOut.submit(2)]);
  assert.deepEqual(
    results.map((result) => result.status),
    ['rejected', 'rejected'],
  );
  assert.equal(timedOutRuns, 1);
});

test('idle resolves once every call submitted has settled', async () => {
  let settled = 0;
  const batcher = new Batcher<number, number>(
    async (items) => {
      await turn();
      settled += items.length;
      return items;
    },
    { maxItems: 2, concurrency: 1 },
  );
  for (let item = 0; item < 5; item += 1) void batcher.submit(item);
  await batcher.idle();
  assert.equal(settled, 5);
});
