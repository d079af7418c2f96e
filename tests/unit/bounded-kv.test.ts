// Fedify's key-value store in memory, bounded (src/server/federation/bounded-kv.ts): what activities naming ever new
// remote documents leave in it stays within its budget, entries expire with their time to live, and Fedify's other
// calls (compare-and-set, list by prefix) keep their meaning.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { KvStoreSetOptions } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { BoundedKvStore } from '../../src/server/federation/bounded-kv.ts';

async function count(kv: BoundedKvStore): Promise<number> {
  const held = [];
  for await (const entry of kv.list()) held.push(entry);
  return held.length;
}

test('remote documents of a mebibyte each, named by ever new keys: the store keeps at most 64 of them, the newest', async () => {
  const kv = new BoundedKvStore();
  const document = { publicKeyPem: 'k'.repeat(1024 * 1024) };
  for (let n = 0; n < 200; n += 1) await kv.set(['_fedify', 'remoteDocument', `https://host${String(n)}.example/key`], document);
  const held = await count(kv);
  assert.ok(held <= 64 && held >= 32, `${String(held)} held`);
  assert.deepEqual(await kv.get(['_fedify', 'remoteDocument', 'https://host199.example/key']), document);
  assert.equal(await kv.get(['_fedify', 'remoteDocument', 'https://host0.example/key']), undefined);
});

test('small entries without end: the store keeps at most 10,000', async () => {
  const kv = new BoundedKvStore();
  for (let n = 0; n < 12_000; n += 1) await kv.set(['_fedify', 'activityIdempotence', String(n)], true);
  assert.equal(await count(kv), 10_000);
});

test('an entry expires with its time to live', async () => {
  const kv = new BoundedKvStore();
  // Fedify types a time to live with the language's Temporal and makes it with this polyfill, as Node has no other.
  const ttl = Temporal.Duration.from({ milliseconds: 30 }) as unknown as NonNullable<KvStoreSetOptions['ttl']>;
  await kv.set(['short'], 'gone soon', { ttl });
  await kv.set(['kept'], 'kept');
  assert.equal(await kv.get(['short']), 'gone soon');
  await sleep(80);
  assert.equal(await kv.get(['short']), undefined);
  assert.equal(await kv.get(['kept']), 'kept');
});

test('compare-and-set replaces only the value expected, and deletes with undefined; list keeps to its prefix', async () => {
  const kv = new BoundedKvStore();
  assert.equal(await kv.cas(['lock'], undefined, { holder: 'a' }), true);
  assert.equal(await kv.cas(['lock'], { holder: 'b' }, { holder: 'c' }), false);
  assert.deepEqual(await kv.get(['lock']), { holder: 'a' });
  assert.equal(await kv.cas(['lock'], { holder: 'a' }, undefined), true);
  assert.equal(await kv.get(['lock']), undefined);
  await kv.set(['a', '1'], 1);
  await kv.set(['a', '2'], 2);
  await kv.set(['b', '1'], 3);
  const listed: unknown[] = [];
  for await (const { key } of kv.list(['a'])) listed.push(key);
  assert.deepEqual(listed.map((key) => JSON.stringify(key)).sort(), ['["a","1"]', '["a","2"]']);
});
