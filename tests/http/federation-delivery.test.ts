// The federation's deliveries: an article that becomes visible goes to its language's followers, once per inbox,
// through the store's durable queue, across a SIGKILL and two instances, and never to a private address unless allowed.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { dataTool } from '../support/data-tool.ts';
import { startPeer, startSiteFor, type Peer } from '../support/fediverse-peer.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

/** The site's origin as its build names it: every id is on it. */
const SITE_URL = 'http://localhost:4321';
// The fixture "next-century" (2099-01-01) is written in English and Arabic only.
const BEFORE_THE_DATE = '2098-12-31T23:58:00Z';
const ON_THE_DATE = '2099-01-01T00:00:10Z';
const CREATE_EN = `${SITE_URL}/articles/next-century#create`;
const CREATE_AR = `${SITE_URL}/ar/articles/next-century#create`;
/** Followers each with an inbox of its own, for a fan-out of that many POSTs. */
const MANY = 200;

type Json = Record<string, unknown>;

const STORES = {
  embedded: () => Promise.resolve({}),
  PostgreSQL: async () => ({ DATABASE_URL: await freshDatabase('deliveries') }),
};

function federating(store: Record<string, string>, clock: string, allowPrivate = true): Record<string, string> {
  return { ...store, FEDERATION: 'on', TEST_CLOCK: clock, ...(allowPrivate ? { FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1' } : {}) };
}

/** Starts the site before the date and stops it: the store's first start, whose visible articles are never pushed. */
async function baseline(
  store: Record<string, string>,
  peer: Peer,
  allowPrivate = true,
  whileUp = async (_site: RunningSite) => {},
): Promise<Record<string, string>> {
  const site = await startSiteFor(peer, PREPARED_SITE, federating(store, BEFORE_THE_DATE, allowPrivate));
  try {
    await whileUp(site);
  } finally {
    await site.stop();
  }
  return { ...store, DATA_DIR: site.dataDir };
}

/** Adds `count` followers of the English actor, each with its own inbox on the peer, as an import would. */
async function importFollowers(store: Record<string, string>, peer: Peer, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, n) => `solo${n}`);
  const records = names.map((name) => ({
    kind: 'follower',
    item: {
      lang: 'en',
      actorId: `${peer.origin}/users/${name}`,
      inbox: `${peer.origin}/users/${name}/inbox`,
      sharedInbox: null,
      followedAt: '2098-12-01T00:00:00.000Z',
    },
  }));
  const file = join(tmpdir(), `followers-${process.pid}-${Date.now()}.jsonl`);
  await writeFile(file, records.map((record) => JSON.stringify(record)).join('\n'));
  const run = await dataTool(store, 'import', file);
  assert.equal(run.code, 0, run.output);
  return names;
}

/** The Creates the peer's inboxes received and Fedify verified, as `<receiver> <activity id>`. */
async function creates(peer: Peer): Promise<string[]> {
  const received = await peer.control<Json[]>('received');
  return received
    .filter((activity) => activity['type'] === 'Create')
    .map((activity) => `${String(activity['receivedBy'])} ${String(activity['id'])}`);
}

/** How many POSTs each inbox was sent for the English Create. */
async function postsPerInbox(peer: Peer): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const post of await peer.control<string[]>('posts')) {
    const [inbox = '', id] = post.split(' ');
    if (id === CREATE_EN) counts.set(inbox, (counts.get(inbox) ?? 0) + 1);
  }
  return counts;
}

for (const [engine, makeStore] of Object.entries(STORES)) {
  describe(`deliveries on the ${engine} store`, () => {
    test('an article on its date, with no rebuild, goes once to its language’s followers, and to no other language’s', async () => {
      const peer = await startPeer(BEFORE_THE_DATE);
      try {
        const store = await baseline(await makeStore(), peer, true, async () => {
          for (const [name, lang] of [
            ['alice', 'en'],
            ['solofr', 'fr'],
            ['soloar', 'ar'],
          ] as const)
            assert.equal(await peer.control('follow', { lang, name }), 202);
          await until(async () => (await peer.control<Json[]>('received')).length === 3, 'three Accepts');
        });
        const site = await startSiteFor(peer, PREPARED_SITE, federating(store, ON_THE_DATE));
        try {
          await until(async () => (await creates(peer)).length >= 2, 'the Creates of the English and Arabic translations');
          // Twice the deliverer's poll: anything more would have come by now.
          await new Promise((resolve) => setTimeout(resolve, 4500));
          assert.deepEqual((await creates(peer)).sort(), [`shared inbox ${CREATE_EN}`, `soloar ${CREATE_AR}`].sort());
          const posts = await peer.control<string[]>('posts');
          assert.deepEqual(
            posts.filter((post) => post.endsWith('#create')).sort(),
            [`/inbox ${CREATE_EN}`, `/users/soloar/inbox ${CREATE_AR}`].sort(),
          );
          const received = await peer.control<Json[]>('received');
          const create = received.find((activity) => activity['id'] === CREATE_EN);
          const article = create?.['object'] as Json;
          assert.equal(article['type'], 'Article');
          assert.equal(article['id'], `${SITE_URL}/articles/next-century`);
          assert.equal(create?.['actor'], `${SITE_URL}/federation/actors/en`);
          assert.ok(article['name'], 'the title, which Mastodon shows with the link');
        } finally {
          await site.stop();
        }
      } finally {
        peer.stop();
      }
    });

    test(`a fan-out to ${MANY} inboxes cut by SIGKILL ends after the restart with each inbox given the Create once`, async () => {
      const peer = await startPeer(BEFORE_THE_DATE);
      try {
        const store = await baseline(await makeStore(), peer);
        const names = await importFollowers(store, peer, MANY);
        await peer.control('slow', { ms: '40' });
        const first = await startSiteFor(peer, PREPARED_SITE, federating(store, ON_THE_DATE));
        await until(async () => (await postsPerInbox(peer)).size >= 40, 'the fan-out under way', { timeoutMs: 60_000 });
        await first.kill();
        const cutAt = (await postsPerInbox(peer)).size;
        assert.ok(cutAt < MANY, `cut mid-fan-out (${cutAt} of ${MANY})`);
        await peer.control('slow', { ms: '0' });
        const second = await startSiteFor(peer, PREPARED_SITE, federating(store, ON_THE_DATE));
        try {
          // A lease of the killed process runs out before what it held is sent again (30 s on PostgreSQL).
          await until(async () => (await postsPerInbox(peer)).size === MANY, 'every inbox reached', { timeoutMs: 90_000 });
          await new Promise((resolve) => setTimeout(resolve, 4500));
          const verified = (await creates(peer)).filter((line) => line.endsWith(CREATE_EN));
          assert.deepEqual(verified.sort(), names.map((name) => `${name} ${CREATE_EN}`).sort(), 'each follower has the activity once');
          const counts = [...(await postsPerInbox(peer)).values()];
          const again = counts.reduce((sum, count) => sum + count - 1, 0);
          // Only a POST under way when the process died may have gone twice: at most those a claim holds.
          assert.ok(again <= 32 && Math.max(...counts) <= 2, `sent again: ${again}`);
        } finally {
          await second.stop();
        }
      } finally {
        peer.stop();
      }
    });
  });
}

test('two instances on PostgreSQL share a fan-out and send each inbox the Create once', async () => {
  const peer = await startPeer(BEFORE_THE_DATE);
  try {
    const database = await STORES.PostgreSQL();
    const store = await baseline(database, peer);
    await importFollowers(store, peer, MANY);
    await peer.control('slow', { ms: '10' });
    const [one, two] = await Promise.all([
      startSiteFor(peer, PREPARED_SITE, federating(store, ON_THE_DATE)),
      startSite(PREPARED_SITE, federating(database, ON_THE_DATE)),
    ]);
    try {
      await until(async () => (await postsPerInbox(peer)).size === MANY, 'every inbox reached', { timeoutMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 4500));
      assert.deepEqual(new Set((await postsPerInbox(peer)).values()), new Set([1]), 'one POST per inbox');
      assert.match(one.output() + two.output(), /deliver/);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  } finally {
    peer.stop();
  }
});

test('with FEDERATION_ALLOW_PRIVATE_ADDRESSES unset, a follower on a private address is never fetched or sent to', async () => {
  const peer = await startPeer(BEFORE_THE_DATE);
  try {
    const store = await baseline(await STORES.embedded(), peer, false, async () => {
      assert.equal(await peer.control('follow', { lang: 'en', name: 'alice' }), 401, 'its key is on a private address');
    });
    await importFollowers(store, peer, 1);
    const site = await startSite(PREPARED_SITE, federating(store, ON_THE_DATE, false));
    try {
      await until(() => /given up on \(private\)/.test(site.output()), 'the delivery given up on');
      assert.deepEqual(await peer.control<string[]>('requests'), [], 'the peer was never asked anything');
    } finally {
      await site.stop();
    }
  } finally {
    peer.stop();
  }
});
