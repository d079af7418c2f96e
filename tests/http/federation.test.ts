import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { startPeer, type Peer } from '../support/fediverse-peer.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

/** The site's origin as its build names it (SITE_URL): every id is on it, whatever port the test site listens on. */
const SITE_URL = 'http://localhost:4321';
const ACTIVITY = 'application/activity+json';
const AS_PROFILE = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const ARTICLE = 'one-site-fifteen-languages';

type Json = Record<string, unknown>;

async function json(site: RunningSite, path: string, accept = ACTIVITY): Promise<Json> {
  const response = await fetch(`${site.url}${path}`, { headers: { Accept: accept } });
  assert.equal(response.status, 200, path);
  return (await response.json()) as Json;
}

async function followerCount(site: RunningSite, lang: string): Promise<number> {
  return (await json(site, `/federation/actors/${lang}/followers`))['totalItems'] as number;
}

function federationOn(store: string, env: () => Promise<Record<string, string>>): void {
  describe(`the publication on the fediverse (${store} store)`, () => {
    let site: RunningSite;
    let peer: Peer;
    before(async () => {
      peer = await startPeer();
      site = await startSite(PREPARED_SITE, { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1', ...(await env()) });
      await peer.control('site', { url: site.url });
    });
    after(async () => {
      peer.stop();
      await site.stop();
    });

    test('each language is an actor found by WebFinger, with its name, inbox, outbox, followers and key', async () => {
      for (const lang of ['en', 'fr']) {
        const jrd = await json(site, `/.well-known/webfinger?resource=acct:${lang}@localhost:4321`, 'application/jrd+json');
        const self = (jrd['links'] as Json[]).find((link) => link['rel'] === 'self');
        assert.ok(self, 'a self link');
        assert.equal(self['type'], ACTIVITY);
        const actorId = `${SITE_URL}/federation/actors/${lang}`;
        assert.equal(self['href'], actorId);
        const actor = await json(site, new URL(actorId).pathname);
        assert.equal(actor['type'], 'Service');
        assert.equal(actor['preferredUsername'], lang);
        assert.equal(actor['url'], lang === 'en' ? `${SITE_URL}/` : `${SITE_URL}/${lang}/`);
        assert.equal(actor['inbox'], `${actorId}/inbox`);
        assert.equal((actor['endpoints'] as Json)['sharedInbox'], `${SITE_URL}/federation/inbox`);
        assert.match(String((actor['publicKey'] as Json)['publicKeyPem']), /BEGIN PUBLIC KEY/);
        assert.match(String((actor['icon'] as Json)['url']), new RegExp(`/cards/${lang}/site\\.`));
        assert.ok(actor['name'] && actor['summary'], 'a name and a description');
        const outbox = await json(site, `/federation/actors/${lang}/outbox`);
        assert.ok((outbox['totalItems'] as number) >= 1);
        const page = await json(site, `/federation/actors/${lang}/outbox?cursor=0`);
        const objects = (page['orderedItems'] as Json[]).map((create) => (create['object'] as Json)['id']);
        assert.ok(objects.includes(`${SITE_URL}${lang === 'en' ? '' : `/${lang}`}/articles/${ARTICLE}`));
      }
      const english = await json(site, '/federation/actors/en');
      const french = await json(site, '/federation/actors/fr');
      assert.notEqual(english['summary'], french['summary'], 'each speaks its language');
      assert.equal(await followerCount(site, 'en'), 0);
      const nodeInfo = await json(site, '/nodeinfo/2.1', 'application/json');
      assert.deepEqual(nodeInfo['protocols'], ['activitypub']);
      const missing = await fetch(`${site.url}/.well-known/webfinger?resource=acct:xx@localhost:4321`);
      assert.equal(missing.status, 404);
    });

    test('an article translation is an Article at its page URL, and browsers and agents get what they got', async () => {
      for (const [lang, path] of [
        ['en', `/articles/${ARTICLE}`],
        ['fr', `/fr/articles/${ARTICLE}`],
      ] as const) {
        for (const accept of [ACTIVITY, AS_PROFILE]) {
          const article = await json(site, path, accept);
          assert.equal(article['type'], 'Article');
          assert.equal(article['id'], `${SITE_URL}${path}`);
          assert.equal(article['url'], `${SITE_URL}${path}`);
          assert.equal(article['attributedTo'], `${SITE_URL}/federation/actors/${lang}`);
          assert.ok(String(article['name']).length > 0);
          assert.match(String(article['content']), /<p>/);
          assert.ok((article['contentMap'] as Json)[lang], 'its language');
          assert.equal(article['to'], 'as:Public');
          assert.equal(article['cc'], `${SITE_URL}/federation/actors/${lang}/followers`);
          assert.match(String((article['image'] as Json)['url']), new RegExp(`/cards/${lang}/articles/${ARTICLE}\\.`));
        }
        const page = await fetch(`${site.url}${path}`, { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
        assert.equal(page.status, 200);
        assert.match(page.headers.get('content-type') ?? '', /text\/html/);
        assert.match(page.headers.get('vary') ?? '', /Accept/);
        const etag = page.headers.get('etag') ?? '';
        assert.ok(etag);
        const again = await fetch(`${site.url}${path}`, { headers: { 'If-None-Match': etag } });
        assert.equal(again.status, 304);
        const twin = await fetch(`${site.url}${path}`, { headers: { Accept: 'text/markdown' } });
        assert.match(twin.headers.get('content-type') ?? '', /text\/markdown/);
      }
      const scheduled = await fetch(`${site.url}/articles/next-century`, { headers: { Accept: ACTIVITY } });
      assert.equal(scheduled.status, 404, 'a scheduled article is no object before its date');
    });

    test('an unsigned Follow is refused with 401 and stores nothing', async () => {
      assert.equal(await peer.control('follow', { lang: 'en', signed: 'no' }), 401);
      assert.equal(await followerCount(site, 'en'), 0);
    });

    test('a signed Follow is kept and answered with Accept; its Undo removes the follower', async () => {
      assert.equal(await peer.control('follow', { lang: 'en' }), 202);
      const received = await peer.control<Json[]>('received');
      const accept = received.find((activity) => activity['type'] === 'Accept');
      assert.ok(accept, 'the peer received an Accept');
      assert.equal(accept['actor'], `${SITE_URL}/federation/actors/en`);
      assert.equal(await followerCount(site, 'en'), 1);
      assert.equal(await followerCount(site, 'fr'), 0, 'another language has its own followers');
      const page = await json(site, '/federation/actors/en/followers?cursor=0');
      assert.deepEqual(page['orderedItems'], [peer.actorId]);
      assert.equal(await peer.control('undo', { lang: 'en' }), 202);
      assert.equal(await followerCount(site, 'en'), 0);
    });
  });
}

federationOn('embedded', () => Promise.resolve({}));
federationOn('PostgreSQL', async () => ({ DATABASE_URL: await freshDatabase('federation') }));
after(() => dropDatabases());

describe('with FEDERATION off', () => {
  test('nothing of the federation answers', async (t) => {
    const site = await startSite(PREPARED_SITE);
    t.after(() => site.stop());
    for (const path of ['/.well-known/webfinger?resource=acct:en@localhost:4321', '/federation/actors/en', '/nodeinfo/2.1'])
      assert.equal((await fetch(`${site.url}${path}`, { headers: { Accept: ACTIVITY } })).status, 404, path);
    const page = await fetch(`${site.url}/articles/${ARTICLE}`, { headers: { Accept: ACTIVITY } });
    assert.doesNotMatch(page.headers.get('content-type') ?? '', /activity/);
  });
});
