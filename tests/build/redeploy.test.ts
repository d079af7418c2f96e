// In tests/build, not tests/http: it builds a site, which must not share the two cores with the HTTP tests that time
// their answers (read-costs.test.ts).
// A redeploy that adds an article, changes another's English text and removes a third: each consumer of appearances
// takes each change once. The newsletter sends an email of the added article only, to each subscriber in their
// language or the original; the federation sends each follower of the language a Create of the added one, an Update
// of the changed one and a Delete of the removed one, and the followers of other languages nothing; a restart sends
// nothing more. The articles of the first deploy as they were are sent to no one. One build, served on both stores.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { dataTool } from '../support/data-tool.ts';
import { startPeer, startSiteFor, type Peer } from '../support/fediverse-peer.ts';
import { readMail } from '../support/mail.ts';
import { confirmedSubscriber } from '../support/newsletter.ts';
import { startSmtp } from '../support/notification-sinks.ts';
import { PREPARED_BUILD } from '../support/prepared-build.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { addFiles, build, copyOfPreparedSite, PREPARED_SITE, startSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

const SITE_URL = 'http://localhost:4321';
const ADDED = 'added-by-a-redeploy';
const CHANGED = 'writing-in-plain-text';
const REMOVED = 'only-in-english';
const READER = 'lecteur.redeploy@example.test';
/** What the redeploy adds to the changed article's English text. */
const NEW_TEXT = 'A paragraph added by the second deploy.';
/** Twice the senders' slowest turn: anything more would have come by now. */
const SETTLE_MS = 4500;

const STORES = {
  embedded: () => Promise.resolve({}),
  PostgreSQL: async () => ({ DATABASE_URL: await freshDatabase('redeploy') }),
};

type Json = Record<string, unknown>;

let redeployed = '';
before(async () => {
  redeployed = await copyOfPreparedSite();
  const changed = join(redeployed, `content/articles/${CHANGED}/en.md`);
  await writeFile(changed, `${await readFile(changed, 'utf8')}\n${NEW_TEXT}\n`);
  await rm(join(redeployed, `content/articles/${REMOVED}`), { recursive: true });
  await addFiles(redeployed, {
    [`content/articles/${ADDED}/en.md`]:
      '---\ntitle: "Added by a redeploy"\ndate: 2026-01-02\nexcerpt: "New in the second deploy."\n---\n\nWritten after the first deploy.\n',
  });
  const built = await build(redeployed, PREPARED_BUILD);
  assert.equal(built.code, 0, built.output);
});

/** A French subscriber, an English follower (through its server's shared inbox) and a French one (its own inbox). */
async function importReaders(settings: Record<string, string>, peer: Peer): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const records = [
    confirmedSubscriber('redeploy-reader', READER, 'fr', at),
    {
      kind: 'follower',
      item: { lang: 'en', actorId: peer.actorId, inbox: `${peer.actorId}/inbox`, sharedInbox: `${peer.origin}/inbox`, followedAt: at },
    },
    {
      kind: 'follower',
      item: {
        lang: 'fr',
        actorId: `${peer.origin}/users/solofr`,
        inbox: `${peer.origin}/users/solofr/inbox`,
        sharedInbox: null,
        followedAt: at,
      },
    },
  ];
  const file = join(tmpdir(), `redeploy-${process.pid}-${Date.now()}.jsonl`);
  await writeFile(file, records.map((record) => JSON.stringify(record)).join('\n'));
  const imported = await dataTool(settings, 'import', file);
  assert.equal(imported.code, 0, imported.output);
}

/** The activities the peer's inboxes received and verified, as `<receiver> <type> <id>`. */
async function activities(peer: Peer): Promise<string[]> {
  return (await peer.control<Json[]>('received')).map(
    (activity) => `${String(activity['receivedBy'])} ${String(activity['type'])} ${String(activity['id'])}`,
  );
}

for (const [engine, makeStore] of Object.entries(STORES)) {
  test(`on the ${engine} store, a redeploy's new, changed and removed articles each reach their followers once; only the new one is emailed`, async () => {
    const smtp = await startSmtp();
    const peer = await startPeer();
    const settings = {
      ...(await makeStore()),
      NEWSLETTER: 'on',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      NEWSLETTER_FROM: 'Longhand <news@example.test>',
      NEWSLETTER_RATE: '600',
      FEDERATION: 'on',
      FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1',
    };
    try {
      // The first deploy: what it shows is the baseline, sent to no one.
      const first = await startSite(PREPARED_SITE, settings);
      await first.stop();
      const kept = { ...settings, DATA_DIR: first.dataDir };
      await importReaders(kept, peer);

      const second = await startSiteFor(peer, redeployed, kept);
      const expected = [
        `shared inbox Create ${SITE_URL}/articles/${ADDED}#create`,
        `shared inbox Update ${SITE_URL}/articles/${CHANGED}#update-2`,
        `shared inbox Delete ${SITE_URL}/articles/${REMOVED}#delete-2`,
      ];
      try {
        await until(async () => smtp.messages.length >= 1 && (await activities(peer)).length >= 3, 'the email and the three activities');
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        assert.deepEqual((await activities(peer)).sort(), expected.sort(), 'to the English follower only, each once');
        const posts = await peer.control<string[]>('posts');
        assert.equal(posts.length, 3, `one POST each: ${posts.join(', ')}`);
        const received = await peer.control<Json[]>('received');
        const update = received.find((activity) => activity['type'] === 'Update');
        const article = update?.['object'] as Json;
        assert.match(JSON.stringify(article['content']), new RegExp(NEW_TEXT), 'the Update carries the new text');
        assert.ok(String(article['updated']) > String(article['published']), 'and when it changed');
        const deleted = received.find((activity) => activity['type'] === 'Delete')?.['object'] as Json;
        assert.equal(deleted['id'], `${SITE_URL}/articles/${REMOVED}`);
        assert.equal(smtp.messages.length, 1, 'one email, of the added article only');
        const mail = readMail(smtp.messages[0] ?? '');
        assert.match(mail.headers.get('subject') ?? '', /Added by a redeploy/);
        assert.match(mail.text, new RegExp(`${SITE_URL}/fr/articles/${ADDED}`), 'the French reader’s page of it');
        const gone = await fetch(`${second.url}/articles/${REMOVED}`, { headers: { Accept: 'application/activity+json' } });
        assert.equal(gone.status, 410, 'the removed article’s id is gone');
        assert.equal(((await gone.json()) as Json)['type'], 'Tombstone');
      } finally {
        await second.stop();
      }

      const third = await startSiteFor(peer, redeployed, kept);
      try {
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        assert.deepEqual((await activities(peer)).sort(), expected.sort(), 'a restart sends nothing again');
        assert.equal((await peer.control<string[]>('posts')).length, 3);
        assert.equal(smtp.messages.length, 1);
      } finally {
        await third.stop();
      }
    } finally {
      peer.stop();
      await smtp.stop();
    }
  });
}
