// In tests/build, not tests/http: it builds a site, which must not share the two cores with the HTTP tests that time
// their answers (read-costs.test.ts).
// A redeploy that adds an article: its translation appears once, and both senders that watch appearances take it,
// the newsletter (an email to each subscriber, in their language or the original) and the federation (a Create to
// each follower of its language), while the articles of the first deploy are sent to no one.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { dataTool } from '../support/data-tool.ts';
import { startPeer, startSiteFor } from '../support/fediverse-peer.ts';
import { readMail } from '../support/mail.ts';
import { startSmtp } from '../support/notification-sinks.ts';
import { PREPARED_BUILD } from '../support/prepared-build.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { addFiles, build, copyOfPreparedSite, PREPARED_SITE, startSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

const SITE_URL = 'http://localhost:4321';
const ADDED = 'added-by-a-redeploy';
const READER = 'lecteur.redeploy@example.test';

test('an article added by a redeploy reaches each subscriber and each follower of its language once', async () => {
  const redeployed = await copyOfPreparedSite();
  await addFiles(redeployed, {
    [`content/articles/${ADDED}/en.md`]:
      '---\ntitle: "Added by a redeploy"\ndate: 2026-01-02\nexcerpt: "New in the second deploy."\n---\n\nWritten after the first deploy.\n',
  });
  const built = await build(redeployed, PREPARED_BUILD);
  assert.equal(built.code, 0, built.output);
  const smtp = await startSmtp();
  const peer = await startPeer();
  const settings = {
    DATABASE_URL: await freshDatabase('redeploy'),
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
    const records = [
      {
        kind: 'subscriber',
        item: {
          id: 'redeploy-reader',
          email: READER,
          lang: 'fr',
          status: 'confirmed',
          createdAt: '2026-01-01T00:00:00.000Z',
          confirmedAt: '2026-01-01T00:00:00.000Z',
          confirmationSentAt: '2026-01-01T00:00:00.000Z',
        },
      },
      {
        kind: 'follower',
        item: {
          lang: 'en',
          actorId: peer.actorId,
          inbox: `${peer.actorId}/inbox`,
          sharedInbox: `${peer.origin}/inbox`,
          followedAt: '2026-01-01T00:00:00.000Z',
        },
      },
    ];
    const file = join(tmpdir(), `redeploy-${process.pid}.jsonl`);
    await writeFile(file, records.map((record) => JSON.stringify(record)).join('\n'));
    const imported = await dataTool({ ...settings, DATA_DIR: first.dataDir }, 'import', file);
    assert.equal(imported.code, 0, imported.output);

    const second = await startSiteFor(peer, redeployed, { ...settings, DATA_DIR: first.dataDir });
    try {
      const creates = async () =>
        (await peer.control<Record<string, unknown>[]>('received'))
          .filter((activity) => activity['type'] === 'Create')
          .map((activity) => activity['id']);
      await until(async () => smtp.messages.length >= 1 && (await creates()).length >= 1, 'the email and the Create');
      // Twice the senders' slowest turn: anything more would have come by now.
      await new Promise((resolve) => setTimeout(resolve, 4500));
      assert.deepEqual(await creates(), [`${SITE_URL}/articles/${ADDED}#create`], 'one Create, of the added article only');
      assert.equal(smtp.messages.length, 1, 'one email, of the added article only');
      const mail = readMail(smtp.messages[0] ?? '');
      assert.match(mail.headers.get('subject') ?? '', /Added by a redeploy/);
      assert.match(mail.text, new RegExp(`${SITE_URL}/fr/articles/${ADDED}`), 'the French reader’s page of it');
    } finally {
      await second.stop();
    }
  } finally {
    peer.stop();
    await smtp.stop();
  }
});
