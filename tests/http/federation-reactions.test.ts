// Likes and boosts from the fediverse: a signed Like or Announce of an article, in any of its languages, counts once
// per remote actor and kind, shown beside the thread on the page without JavaScript; its Undo by its actor takes it
// back, anyone else's does nothing.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { startPeer } from '../support/fediverse-peer.ts';
import { request } from '../support/http.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

const SITE_URL = 'http://localhost:4321';
const ARTICLE = 'writing-in-plain-text';

for (const engine of ['embedded', 'PostgreSQL'] as const) {
  describe(`likes and boosts on the ${engine} store`, () => {
    test('are counted once per actor, shown on the page in its language, and taken back by their Undo', async () => {
      const peer = await startPeer();
      const store = engine === 'PostgreSQL' ? { DATABASE_URL: await freshDatabase('reactions') } : {};
      const site = await startSite(PREPARED_SITE, { ...store, FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1' });
      const english = `${SITE_URL}/articles/${ARTICLE}`;
      const french = `${SITE_URL}/fr/articles/${ARTICLE}`;
      const counts = async (path = `/articles/${ARTICLE}`) =>
        /<p class="thread-reactions">([\s\S]*?)<\/p>/
          .exec((await request(`${site.url}${path}`)).text)?.[1]
          ?.replace(/<[^>]+>/g, '')
          .replace(/\s+/g, ' ')
          .trim() ?? '';
      try {
        await peer.control('site', { url: site.url });
        assert.equal(await counts(), '', 'nothing shown before any');
        assert.equal(await peer.control('react', { kind: 'like', object: french }), 202);
        assert.equal(await peer.control('react', { kind: 'like', object: english, n: '2' }), 202, 'the same actor, another language');
        assert.equal(await peer.control('react', { kind: 'boost', object: english }), 202);
        assert.equal(await peer.control('react', { name: 'bob', kind: 'like', object: english }), 202);
        assert.equal(await peer.control('react', { name: 'bob', kind: 'like', object: `${SITE_URL}/answers` }), 202, 'not an article');
        await until(async () => (await counts()) === 'Likes on the fediverse: 2 · Boosts on the fediverse: 1', 'the counts on the page');
        assert.equal(await counts(`/fr/articles/${ARTICLE}`), 'J’aime sur le fédivers: 2 · Partages sur le fédivers: 1');

        assert.equal(await peer.control('unreact', { kind: 'like', object: french, as: 'mallory' }), 202, 'someone else’s Undo');
        assert.equal(await peer.control('unreact', { kind: 'boost', object: english }), 202);
        await until(async () => (await counts()) === 'Likes on the fediverse: 2 · Boosts on the fediverse: 0', 'the boost taken back');
        assert.equal(await peer.control('unreact', { kind: 'like', object: french }), 202);
        await until(async () => (await counts()) === 'Likes on the fediverse: 1 · Boosts on the fediverse: 0', 'the like taken back');
      } finally {
        await site.stop();
        peer.stop();
      }
    });
  });
}
