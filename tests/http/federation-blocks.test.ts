// What an inbox refuses before reading: the activities of an instance the owner blocked (403), which lose its
// followers until the block is lifted, on the desk on both stores and with the data tool on PostgreSQL while the site
// runs; and an actor past its quota (429 with Retry-After), counted across instances where Redis keeps the quotas.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { dataTool } from '../support/data-tool.ts';
import { startPeer } from '../support/fediverse-peer.ts';
import { request, type Answer } from '../support/http.ts';
import { freePort } from '../support/ports.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

const SITE_URL = 'http://localhost:4321';
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ARTICLE = 'writing-in-plain-text';

async function followerCount(site: RunningSite): Promise<number> {
  const answer = await fetch(`${site.url}/federation/actors/en/followers`, { headers: { Accept: 'application/activity+json' } });
  return ((await answer.json()) as { totalItems: number }).totalItems;
}

for (const engine of ['embedded', 'PostgreSQL'] as const) {
  describe(`the inbox's gate on the ${engine} store`, () => {
    test('loses its followers, is refused until unblocked, and is listed on the desk', async () => {
      const peer = await startPeer();
      const port = await freePort();
      const store = engine === 'PostgreSQL' ? { DATABASE_URL: await freshDatabase('blocks') } : {};
      const site = await startSite(PREPARED_SITE, {
        ...store,
        FEDERATION: 'on',
        FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1',
        OWNER_PORT: String(port),
      });
      const desk = `http://127.0.0.1:${port}`;
      const act = (action: string, host: string): Promise<Answer> =>
        request(`${desk}/instances/${action}`, {
          method: 'POST',
          headers: { Origin: desk, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ back: '/requests', host }).toString(),
        });
      const notice = (answer: Answer) => {
        const back = new URL(answer.headers.location ?? '', desk).searchParams;
        return back.get('done') ?? `failed: ${back.get('failed') ?? ''}`;
      };
      const page = async () => (await request(`${site.url}/articles/${ARTICLE}`)).text;
      try {
        await site.printed(/The owner's desk at/);
        await peer.control('site', { url: site.url });
        assert.equal(await peer.control('follow', { lang: 'en' }), 202);
        await until(async () => (await followerCount(site)) === 1, 'the follower counted');

        assert.equal(
          notice(await act('block', 'not a host')),
          'failed: "not a host" names no instance: give its host name, as social.example',
        );
        const blocked = await act('block', peer.actorId);
        assert.equal(blocked.status, 303);
        assert.equal(notice(blocked), '127.0.0.1: blocked, and its followers removed');
        assert.equal(await followerCount(site), 0, 'its followers removed with the block');
        assert.match((await request(`${desk}/requests`)).text, /<strong>127\.0\.0\.1<\/strong> \(and the hosts under it\)/);
        if (engine === 'PostgreSQL') {
          const listed = await dataTool(store, 'blocked-instances');
          assert.match(listed.output, /^127\.0\.0\.1 {2}since \d{4}-/, 'the data tool sees what the desk did');
        }

        assert.equal(await peer.control('follow', { lang: 'en' }), 403, 'a Follow refused');
        const inReplyTo = `${SITE_URL}/articles/${ARTICLE}`;
        assert.equal(await peer.control('reply', { inReplyTo, content: '<p>From a blocked place.</p>' }), 403, 'a reply refused');
        assert.equal(await followerCount(site), 0);
        assert.ok(!(await page()).includes('From a blocked place.'), 'nothing stored');

        if (engine === 'PostgreSQL') {
          const lifted = await dataTool(store, 'unblock-instance', '@alice@127.0.0.1');
          assert.equal(lifted.code, 0, lifted.output);
          assert.match(lifted.output, /127\.0\.0\.1: unblocked/);
        } else assert.equal(notice(await act('unblock', '127.0.0.1')), '127.0.0.1: unblocked');
        assert.equal(notice(await act('unblock', '127.0.0.1')), '127.0.0.1: was not blocked');
        assert.equal(await peer.control('reply', { inReplyTo, content: '<p>Welcome back.</p>', n: '2' }), 202);
        await until(async () => (await page()).includes('Welcome back.'), 'taken again once unblocked');
      } finally {
        await site.stop();
        peer.stop();
      }
    });

    test('an actor past 60 activities a minute is answered 429 with Retry-After; another of its instance is not', async () => {
      const peer = await startPeer();
      const store = engine === 'PostgreSQL' ? { DATABASE_URL: await freshDatabase('inbox_quota'), REDIS_URL } : {};
      const site = await startSite(PREPARED_SITE, { ...store, FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1' });
      try {
        await peer.control('site', { url: site.url });
        const object = `${SITE_URL}/articles/${ARTICLE}`;
        const statuses: number[] = [];
        for (let n = 1; n <= 61; n += 1) statuses.push(await peer.control<number>('react', { kind: 'like', object, n: String(n) }));
        assert.deepEqual(statuses.slice(0, 60), Array<number>(60).fill(202));
        assert.equal(statuses[60], 429);
        const refused = await peer.control<{ status: number; retryAfter: string | null }>('react', {
          kind: 'like',
          object,
          n: '62',
          answer: 'whole',
        });
        assert.equal(refused.status, 429);
        assert.ok(Number(refused.retryAfter) > 0 && Number(refused.retryAfter) <= 60, `Retry-After ${String(refused.retryAfter)}`);
        assert.equal(await peer.control('react', { name: 'bob', kind: 'like', object }), 202, 'another actor of the same instance');
      } finally {
        await site.stop();
        peer.stop();
      }
    });
  });
}
