import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, describe, test, type TestContext } from 'node:test';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { openPostgresStore } from '../../src/server/store/postgres/engine.ts';
import { nextVote } from '../../src/server/store/service.ts';
import type { StoreEngine } from '../../src/server/store/roles.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { newComment, storeContract } from '../support/store-contract.ts';
import { until } from '../support/until.ts';

// A database per store, on the machine's PostgreSQL, dropped once the run is over.
after(dropDatabases);

storeContract('PostgreSQL', {
  fresh: () => freshDatabase('store_contract'),
  open: (url, options) => openPostgresStore(url, options),
});

describe('the PostgreSQL store’s batches', () => {
  test('a write PostgreSQL refuses for its data (a NUL in text) fails alone; the others of its batch are stored', async (t) => {
    const store = await openPostgresStore(await freshDatabase('data_error'));
    t.after(() => store.close());
    const bodies = Array.from({ length: 20 }, (_, index) => (index % 4 === 1 ? `bad ${index}\u0000` : `good ${index}`));
    const outcomes = await Promise.allSettled(bodies.map((body) => store.insertComment(newComment('batched', body))));
    assert.deepEqual(
      outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'stored' : (outcome.reason as { code?: string }).code)),
      bodies.map((body) => (body.startsWith('bad') ? '22021' : 'stored')),
    );
    assert.deepEqual(
      (await store.listComments('batched')).map((comment) => comment.body),
      bodies.filter((body) => body.startsWith('good')),
    );
  });

  test('a vote changed between a batch’s read and its write is decided again on the vote it changed to', async (t) => {
    const url = await freshDatabase('vote_race');
    const store = await openPostgresStore(url);
    t.after(() => store.close());
    const target = { articleSlug: 'raced', commentId: null };
    assert.deepEqual(await store.applyVote(target, 'ann', (current) => nextVote(current, 1)), { score: 1, vote: 1 });

    // Another instance switches ann's vote to -1 and holds the rows until it commits.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    t.after(() => other.end());
    await other.query('BEGIN');
    await other.query("UPDATE article_votes SET vote = -1 WHERE article_slug = 'raced' AND voter = 'ann'");
    await other.query("UPDATE article_scores SET score = score - 2 WHERE article_slug = 'raced'");
    // The store reads +1 (the switch is not committed), so it would remove the vote; its write then waits on the rows.
    const voting = store.applyVote(target, 'ann', (current) => nextVote(current, 1));
    await until(async () => {
      const { rows } = await other.query<{ waiting: string }>(
        "SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      return Number(rows[0]?.waiting) > 0;
    }, 'the store’s write waiting on the locked rows');
    await other.query('COMMIT');

    assert.deepEqual(await voting, { score: 1, vote: 1 }, 'switched from the -1 committed meanwhile, not removed from the +1 read');
    const { rows } = await other.query<{ score: number; votes: string }>(
      `SELECT (SELECT score FROM article_scores WHERE article_slug = 'raced') AS score,
              (SELECT sum(vote) FROM article_votes WHERE article_slug = 'raced') AS votes`,
    );
    assert.deepEqual(
      rows.map((row) => [row.score, Number(row.votes)]),
      [[1, 1]],
    );
  });

  test('a comment that breaks a constraint fails alone; the comments sent with it are stored', async (t) => {
    const store = await openPostgresStore(await freshDatabase('comment_batch'));
    t.after(() => store.close());
    // Sent in one turn, so they leave in one batch; the reply's parent does not exist, which only the foreign key sees.
    const results = await Promise.allSettled([
      store.insertComment(newComment('batched', 'First')),
      store.insertComment(newComment('batched', 'Orphan', 'no-such-parent')),
      store.insertComment(newComment('batched', 'Second')),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(
      (await store.listComments('batched')).map((comment) => comment.body),
      ['First', 'Second'],
    );
    assert.equal(await store.revision('thread:batched'), '2');
  });
});

/** Two stores on one fresh database, as two instances would open it, and a plain connection to it; all closed after the test. */
describe('the PostgreSQL store’s import', () => {
  test('analyzes the tables it filled, so that their queries are planned for the rows they hold', async (t) => {
    const url = await freshDatabase('import_analyze');
    const store = await openPostgresStore(url, { watchBans: false });
    t.after(() => store.close());
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    t.after(() => admin.end());
    const analyzed = async () =>
      (await admin.query<{ at: Date | null }>("SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = 'comments'")).rows[0]
        ?.at ?? null;
    assert.equal(await analyzed(), null);
    const comment = { ...newComment('imported'), id: 'c-1', createdAt: new Date().toISOString(), score: 0, deletedAt: null };
    await store.importRecords([{ kind: 'comment', comment }]);
    await until(async () => (await analyzed()) !== null, 'comments analyzed');
  });
});

async function twoInstances(t: TestContext, name: string): Promise<{ site: StoreEngine; owner: StoreEngine; admin: pg.Client }> {
  const url = await freshDatabase(name);
  const [site, owner] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
  t.after(() => Promise.all([site.close(), owner.close()]));
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  t.after(() => admin.end());
  return { site, owner, admin };
}

describe('the owner’s bans, followed in memory by each instance', () => {
  test('a ban or its lifting made by another instance reaches this one, and one made here counts here at once', async (t) => {
    const { site, owner } = await twoInstances(t, 'ban_watch');
    assert.equal(await site.isBanned('ann'), false);
    assert.equal(await owner.setBan('ann', true), true);
    await until(() => site.isBanned('ann'), 'the ban reaching the other instance');
    assert.equal(await owner.setBan('ann', false), true);
    await until(async () => !(await site.isBanned('ann')), 'the lifted ban reaching the other instance');

    assert.equal(await site.setBan('bob', true), true);
    assert.equal(await site.isBanned('bob'), true, 'the instance that banned, right after');
    assert.equal(await site.setBan('bob', false), true);
    assert.equal(await site.isBanned('bob'), false, 'the instance that lifted it, right after');
  });

  test('a change the notices do not spell out (a TRUNCATE, an update) makes each watch read the bans whole again', async (t) => {
    const { site, owner, admin } = await twoInstances(t, 'ban_watch_reread');
    await owner.setBan('dave', true);
    await until(() => site.isBanned('dave'), 'the ban reaching the other instance');
    await admin.query('TRUNCATE bans');
    await until(async () => !(await site.isBanned('dave')), 'the emptied bans read again');
    await owner.setBan('erin', true);
    await admin.query("UPDATE bans SET reader_hash = 'frank' WHERE reader_hash = 'erin'");
    await until(async () => (await site.isBanned('frank')) && !(await site.isBanned('erin')), 'the updated bans read again');
  });

  test('with its connection cut, the ban check asks the database; back, it reads the bans whole, missing none made meanwhile', async (t) => {
    const { site, owner, admin } = await twoInstances(t, 'ban_watch_cut');
    const cutWatches = async () =>
      (
        await admin.query<{ cut: boolean }>(
          "SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'longhand-bans'",
        )
      ).rowCount ?? 0;
    assert.equal(await cutWatches(), 2, 'each store follows the bans on a connection of its own');

    // Its notice goes to no one: the watches are down, and come back a second later.
    await owner.setBan('carol', true);
    await until(() => site.isBanned('carol'), 'the ban made while the watch was down');
    await until(async () => {
      const { rows } = await admin.query<{ watching: string }>(
        "SELECT count(*) AS watching FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'longhand-bans'",
      );
      return Number(rows[0]?.watching) === 2;
    }, 'the watches connecting again');
    // With the table locked, a check that asked the database would wait on the lock: an answer at once comes from memory.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE bans IN ACCESS EXCLUSIVE MODE');
    const fromMemory = await Promise.race([site.isBanned('carol'), new Promise((resolve) => setTimeout(resolve, 500, 'no answer'))]);
    await admin.query('COMMIT');
    assert.equal(fromMemory, true, 'after its watch read the bans again, the ban whose notice it missed is held in memory');
    await owner.setBan('carol', false);
    await until(async () => !(await site.isBanned('carol')), 'a change after the watch is back');
  });
});

describe('the outbox shared by several instances', () => {
  test('claims made at once by two instances never get the same entry, and together get every one', async (t) => {
    const url = await freshDatabase('outbox_instances');
    const options = { notificationChannels: ['email'] as const };
    const [one, two] = await Promise.all([openPostgresStore(url, options), openPostgresStore(url, options)]);
    t.after(() => Promise.all([one.close(), two.close()]));
    await Promise.all(Array.from({ length: 40 }, (_, index) => one.insertComment(newComment('shared', `Comment ${index}`))));

    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, index) => (index % 2 ? one : two).claimNotifications('email', 7, 60_000)),
    );
    const ids = claims.flat().map((entry) => entry.id);
    assert.equal(ids.length, 40);
    assert.equal(new Set(ids).size, 40);
  });
});

describe('a database written by an earlier version', () => {
  test('its outbox, written before the rows were kept in claim order, is claimed and settled after the upgrade', async (t) => {
    const url = await freshDatabase('outbox_upgrade');
    const migrations = (await readdir('migrations')).filter((name) => name.endsWith('.sql')).sort();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Every migration up to the one before the claim key, then two entries as that version wrote them.
      await runner({
        dbClient: client,
        dir: 'migrations',
        direction: 'up',
        migrationsTable: 'schema_migrations',
        count: migrations.indexOf('1796256000000_outbox-claim-key.sql'),
        log: () => undefined,
      });
      await client.query(
        `INSERT INTO notification_outbox (id, channel, notification, created_at, attempts, due_at)
         SELECT id, 'email', json_build_object('kind', 'bugReport', 'id', id, 'description', id, 'pagePath', '/en/', 'createdAt', at),
           at::timestamptz, 0, at::timestamptz
         FROM (VALUES ('older', '2026-01-01T00:00:00.000Z'), ('newer', '2026-01-02T00:00:00.000Z')) AS entry (id, at)`,
      );
    } finally {
      await client.end();
    }
    const store = await openPostgresStore(url, { notificationChannels: ['email'] });
    t.after(() => store.close());
    const claimed = await store.claimNotifications('email', 10, 60_000);
    assert.deepEqual(
      claimed.map((entry) => [entry.id, entry.notification.kind]),
      [
        ['older', 'bugReport'],
        ['newer', 'bugReport'],
      ],
    );
    await store.notificationsSent(claimed.slice(0, 1));
    await store.notificationsFailed(claimed.slice(1), '2026-01-03T00:00:00.000Z');
    assert.deepEqual(await store.outboxDepth(), { email: 1, webhook: 0 });
    assert.deepEqual(
      (await store.claimNotifications('email', 10, 60_000)).map((entry) => [entry.id, entry.attempts]),
      [['newer', 1]],
    );
  });
});
