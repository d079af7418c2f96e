import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { visibleTranslations } from '../../src/server/appearances/watch.ts';
import { createCatalog } from '../../src/server/articles/catalog.ts';
import type { ArticleSource } from '../../src/server/articles/source.ts';
import { languagesFor, newsletterConsumer } from '../../src/server/newsletter/consumer.ts';
import { openEmbeddedStore } from '../../src/server/store/embedded/engine.ts';
import type { Appearance } from '../../src/server/store/types.ts';

function source(overrides: Partial<ArticleSource>): ArticleSource {
  return { slug: 'a', lang: 'en', title: 'A', date: '2026-01-01', excerpt: 'e', draft: false, body: 'one two', ...overrides };
}

const catalog = createCatalog(
  [
    source({ slug: 'old', date: '2025-05-01' }),
    source({ slug: 'old', lang: 'fr' }),
    source({ slug: 'later', date: '2026-03-01' }),
    source({ slug: 'later', lang: 'de' }),
  ],
  'https://example.org',
);

describe('appearances', () => {
  test('what is visible on a day: every translation written of every published article', () => {
    assert.deepEqual(
      visibleTranslations(catalog, '2026-02-28').map(({ slug, lang }) => [slug, lang]),
      [
        ['old', 'en'],
        ['old', 'fr'],
      ],
    );
    assert.equal(visibleTranslations(catalog, '2026-03-01').length, 4);
  });

  test('a translation is for its language; the original also for the languages it lacks', () => {
    assert.deepEqual(languagesFor({ slug: 'later', lang: 'de' }, catalog), ['de']);
    const forOriginal = languagesFor({ slug: 'later', lang: 'en' }, catalog);
    assert.ok(forOriginal.includes('en') && forOriginal.includes('fr'));
    assert.ok(!forOriginal.includes('de'));
  });

  test('the newsletter queues one issue per confirmed subscriber, once however often it is handed', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'appearances-'));
    const store = await openEmbeddedStore(dir);
    t.after(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    const french = (await store.askSubscription('fr@example.org', 'fr', 0)).subscriber;
    const german = (await store.askSubscription('de@example.org', 'de', 0)).subscriber;
    await store.askSubscription('pending@example.org', 'fr', 0);
    for (const subscriber of [french, german]) await store.confirmSubscriber(subscriber.id);
    const consumer = newsletterConsumer(store, catalog);
    const appearance: Appearance = {
      slug: 'later',
      lang: 'en',
      appearedAt: new Date().toISOString(),
      baseline: false,
      waiting: [],
      version: 1,
      change: 'create',
      digest: 'd',
      updatedAt: null,
    };
    await consumer.take(appearance);
    await consumer.take(appearance);
    const claimed = await store.claimIssues(10, 60_000);
    assert.deepEqual(
      claimed.map((issue) => issue.subscriberId),
      [french.id],
      'the French reader gets the original; the German one waits for the German appearance',
    );
  });

  test('a translation is digested by what a follower sees of it', () => {
    const [en] = visibleTranslations(catalog, '2026-02-28');
    const changed = createCatalog([source({ slug: 'old', date: '2025-05-01', body: 'one two three' })], 'https://example.org');
    assert.notEqual(visibleTranslations(changed, '2026-02-28')[0]?.digest, en?.digest, 'another body, another digest');
    const same = createCatalog([source({ slug: 'old', date: '2025-05-01' })], 'https://example.org');
    assert.equal(visibleTranslations(same, '2026-02-28')[0]?.digest, en?.digest);
  });

  test('the newsletter sends a translation once: never for its updates, its withdrawal or its coming back', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'appearances-'));
    const store = await openEmbeddedStore(dir);
    t.after(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    const reader = (await store.askSubscription('en@example.org', 'en', 0)).subscriber;
    await store.confirmSubscriber(reader.id);
    const consumer = newsletterConsumer(store, catalog);
    const first: Appearance = {
      slug: 'later',
      lang: 'en',
      appearedAt: new Date().toISOString(),
      baseline: true,
      waiting: [],
      version: 1,
      change: 'create',
      digest: 'd',
      updatedAt: null,
    };
    const later = { ...first, updatedAt: new Date().toISOString() };
    for (const [version, change] of [
      [2, 'update'],
      [3, 'delete'],
      [4, 'create'],
    ] as const)
      await consumer.take({ ...later, version, change });
    assert.deepEqual(await store.claimIssues(10, 60_000), []);
  });
});
