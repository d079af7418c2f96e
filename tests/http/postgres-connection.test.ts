import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { userInfo } from 'node:os';
import { after, test } from 'node:test';
import pg from 'pg';
import { dropDatabases, freshDatabase, TEST_DATABASE_URL } from '../support/postgres.ts';
import { PREPARED_SITE, startSite } from '../support/site.ts';
import { newReaderAddress, post } from '../support/writes.ts';

after(dropDatabases);

/** Runs `sql` on the test server as its administrator. */
async function asAdministrator(sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

// As under systemd without User= or in many containers: nothing in the environment names a user.
const NO_USER = { USER: '', PGUSER: '', LOGNAME: '' };

test('DATABASE_URL with no user, USER and PGUSER unset: the site and the data tool connect as the operating system’s user, as psql would', async (t) => {
  const me = userInfo().username;
  const withUser = new URL(await freshDatabase('no_user'));
  const database = withUser.pathname.slice(1);
  // The role psql would use here, owning the database so that the migrations may create its tables.
  const role = pg.escapeIdentifier(me);
  await asAdministrator(
    `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = ${pg.escapeLiteral(me)}) THEN CREATE ROLE ${role} LOGIN; END IF; END $$`,
  );
  await asAdministrator(`ALTER DATABASE ${pg.escapeIdentifier(database)} OWNER TO ${role}`);
  const url = new URL(withUser);
  url.username = '';
  assert.doesNotMatch(url.href, /@/);

  const site = await startSite(PREPARED_SITE, { DATABASE_URL: url.href, TRUST_PROXY: '1', ...NO_USER });
  t.after(() => site.stop());
  const written = await post(site.url, '/api/comments', { articleSlug: 'the-price-of-a-beer', body: 'Who am I?' }, newReaderAddress());
  assert.equal(written.status, 200, written.text);
  const { rows } = await asAdministrator(
    `SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = ${pg.escapeLiteral(database)} AND application_name LIKE 'longhand%'`,
  );
  assert.deepEqual(
    rows.map((row: { usename: string }) => row.usename),
    [me],
  );

  const tool = spawn(process.execPath, ['scripts/data.ts', 'stats'], {
    cwd: PREPARED_SITE,
    env: { ...process.env, DATABASE_URL: url.href, ...NO_USER },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  tool.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  tool.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(tool, 'close')) as [number | null];
  assert.equal(code, 0, output);
  assert.match(output, /comments {16}1 /);
});
