import assert from 'node:assert/strict';
import { test } from 'node:test';
import { now } from '../../src/server/store/clock.ts';

test('a record is stamped with the current time in ISO 8601, to the millisecond, however often it is asked', () => {
  const stamps: [number, string, number][] = [];
  for (let i = 0; i < 20_000; i += 1) stamps.push([Date.now(), now(), Date.now()]);
  for (const [before, stamp, after] of stamps) {
    assert.match(stamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const at = Date.parse(stamp);
    assert.ok(before <= at && at <= after, `${stamp} outside ${before}..${after}`);
  }
  assert.ok(new Set(stamps.map(([, stamp]) => stamp)).size > 1, 'the stamp moves on with the clock');
});
