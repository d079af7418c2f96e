/** The store contract on appearances (store-contract.ts runs these). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportRecord } from '../../src/server/store/shapes.ts';
import type { Appearance, VisibleTranslation } from '../../src/server/store/types.ts';
import { collect, replay, type ContractStores } from './store-contract-kit.ts';

const OLD_EN = { slug: 'old-one', lang: 'en', digest: 'one' } as const;
const OLD_FR = { slug: 'old-one', lang: 'fr', digest: 'un' } as const;
const NEW_FR = { slug: 'new-one', lang: 'fr', digest: 'neuf' } as const;
const FIRST: VisibleTranslation[] = [OLD_EN, OLD_FR];

/** What a test compares of an appearance: its translation, its version and what it is. */
function versions(appearances: readonly Appearance[]): string[] {
  return appearances.map(({ slug, lang, version, change, waiting }) => `${slug}/${lang} ${version} ${change} [${waiting.join()}]`);
}

/** Appearances: a baseline first, then each version recorded once and handed once per consumer. */
export function appearances({ freshStore, harness }: ContractStores): void {
  test('the first appearances are a baseline; later ones wait for their consumers until handed', async (t) => {
    const store = await freshStore(t);
    const baseline = await store.recordAppearances(FIRST, ['newsletter']);
    assert.deepEqual(
      baseline.recorded.map(({ slug, lang, baseline: first, waiting, digest }) => [slug, lang, first, waiting, digest]),
      [
        ['old-one', 'en', true, [], 'one'],
        ['old-one', 'fr', true, [], 'un'],
      ],
    );
    assert.deepEqual(await store.recordAppearances(FIRST, ['newsletter']), { recorded: [], deferred: false }, 'each recorded once');
    const [fresh, again] = await Promise.all([
      store.recordAppearances([...FIRST, NEW_FR], ['newsletter']),
      store.recordAppearances([...FIRST, NEW_FR], ['newsletter']),
    ]);
    assert.equal(fresh.recorded.length + again.recorded.length, 1, 'recorded once when two record it at once');
    const waiting = await store.appearancesWaiting('newsletter', 10);
    assert.deepEqual(
      waiting.map(({ slug, lang, baseline: first }) => [slug, lang, first]),
      [['new-one', 'fr', false]],
    );
    await store.appearancesHanded('newsletter', waiting);
    assert.deepEqual(await store.appearancesWaiting('newsletter', 10), []);
  });

  test('a changed digest is an update, a translation gone a delete, one back a create: each a version, in order', async (t) => {
    const store = await freshStore(t);
    const consumers = ['newsletter', 'federation'] as const;
    await store.recordAppearances(FIRST, consumers);
    const changed = { ...OLD_EN, digest: 'two' };
    const [one, two] = await Promise.all([
      store.recordAppearances([changed, OLD_FR], consumers),
      store.recordAppearances([changed, OLD_FR], consumers),
    ]);
    assert.deepEqual(versions([...one.recorded, ...two.recorded]), ['old-one/en 2 update [newsletter,federation]'], 'once');
    const withdrawn = await store.recordAppearances([OLD_FR], consumers);
    assert.deepEqual(withdrawn, { recorded: [], deferred: true }, 'the change waits while the update is still to be handed');
    await store.appearancesHanded('newsletter', [OLD_EN]);
    assert.equal((await store.recordAppearances([OLD_FR], consumers)).deferred, true, 'and while one consumer still waits');
    await store.appearancesHanded('federation', [OLD_EN]);
    assert.deepEqual(versions((await store.recordAppearances([OLD_FR], consumers)).recorded), [
      'old-one/en 3 delete [newsletter,federation]',
    ]);
    for (const consumer of consumers) await store.appearancesHanded(consumer, [OLD_EN]);
    assert.deepEqual(versions((await store.recordAppearances(FIRST, consumers)).recorded), ['old-one/en 4 create [newsletter,federation]']);
    const found = await store.findAppearance(OLD_EN);
    assert.deepEqual([found?.version, found?.change, found?.digest, found?.baseline], [4, 'create', 'one', true]);
    assert.ok(found?.updatedAt, 'a later version says when it was recorded');
    assert.equal(await store.findAppearance({ slug: 'never-seen', lang: 'en' }), null);

    const exported = (await collect(store.exportRecords())).filter((record) => record.kind === 'appearance');
    const copy = await harness.open(await harness.fresh());
    t.after(() => copy.close());
    assert.deepEqual(await copy.importRecords(replay(exported)), { added: 2, skipped: 0 });
    assert.deepEqual(await copy.findAppearance(OLD_EN), found, 'moved whole to another store');
  });

  test('an appearance recorded before digests were kept gets its digest, and nothing is handed on', async (t) => {
    const store = await freshStore(t);
    // A line of an export from before versions were kept, read as the data tool reads it.
    const line = {
      kind: 'appearance',
      item: { slug: 'old-one', lang: 'en', appearedAt: '2026-01-01T00:00:00.000Z', baseline: true, waiting: [] },
    };
    await store.importRecords(replay([exportRecord.parse(line)]));
    assert.deepEqual(await store.recordAppearances([OLD_EN], ['federation']), { recorded: [], deferred: false });
    const found = await store.findAppearance(OLD_EN);
    assert.deepEqual([found?.version, found?.change, found?.digest], [1, 'create', 'one']);
    assert.deepEqual(await store.appearancesWaiting('federation', 10), []);
  });
}
