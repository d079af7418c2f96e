import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { request } from '../support/http.ts';
import { startEnvironment } from '../support/prepared-build.ts';
import { PREPARED_SITE, startSite, TEST_PRELOADS } from '../support/site.ts';
import { newReaderAddress, post } from '../support/writes.ts';
import { until } from '../support/until.ts';

// One embedded store may be open in one process at a time, and that holds however the last holder ended: a
// killed server that nobody reaps (a zombie), or a lock file from an earlier version naming a process that is
// now something else (a container restarted), never keeps the next `npm start` out.

const ARTICLE = 'the-price-of-a-beer';
const WORK = await mkdtemp(join(tmpdir(), 'store-lock-'));
after(() => rm(WORK, { recursive: true, force: true }));

/** The state letter of a process (/proc/PID/stat): R, S, Z…; null once it is gone. */
async function processState(pid: number): Promise<string | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  // The command name, in parentheses, may hold spaces: the state follows its closing one.
  return text === null ? null : (text.slice(text.lastIndexOf(')') + 2)[0] ?? null);
}

/**
 * `npm start`'s server as the child of a parent that never reaps it: `sh`
 * starts it in the background, then becomes `sleep`, which never waits for a
 * child. Killed, the server stays a zombie until that parent ends.
 */
async function startUnreapedSite(dataDir: string): Promise<{ url: string; pid: number; parent: ChildProcess }> {
  const parent = spawn(
    'sh',
    [
      '-c',
      `"${process.execPath}" ${TEST_PRELOADS.map((arg) => `"${arg}"`).join(' ')} scripts/start.ts & echo "server pid $!"; exec sleep 600`,
    ],
    {
      cwd: PREPARED_SITE,
      env: startEnvironment({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, TRUST_PROXY: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  parent.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  parent.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(() => /on http:\/\/[\d.]+:\d+/.test(output), `the server to listen:\n${output}`, { timeoutMs: 180_000 });
  const url = /on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1] ?? '';
  const pid = Number(/server pid (\d+)/.exec(output)?.[1]);
  return { url, pid, parent };
}

/** Writes `count` comments from distinct readers; resolves with the bodies the server acknowledged. */
async function writeComments(url: string, count: number, label: string): Promise<string[]> {
  const bodies: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const body = `${label} ${index} ${Date.now()}`;
    const answer = await post(url, '/api/comments', { articleSlug: ARTICLE, body }, newReaderAddress());
    assert.equal(answer.status, 200, answer.text);
    bodies.push(body);
  }
  return bodies;
}

async function assertThreadHolds(url: string, bodies: string[]): Promise<void> {
  const thread = await request(`${url}/threads/${ARTICLE}`);
  assert.equal(thread.status, 200);
  for (const body of bodies) assert.ok(thread.text.includes(body), `the thread shows "${body}"`);
}

/** Runs the owner's data tool on `dataDir`, as the owner would. */
async function dataTool(dataDir: string, ...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/data.ts', ...args], {
    cwd: PREPARED_SITE,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr };
}

describe('the embedded store’s lock', () => {
  test('a server killed and left a zombie (never reaped) keeps no lock: npm start serves again at once, with every acknowledged write', async (t) => {
    const dataDir = await mkdtemp(join(WORK, 'zombie-'));
    const first = await startUnreapedSite(dataDir);
    // Ending the parent lets init reap the zombie.
    t.after(() => first.parent.kill('SIGKILL'));
    const bodies = await writeComments(first.url, 5, 'Before the kill');
    process.kill(first.pid, 'SIGKILL');
    await until(async () => (await processState(first.pid)) === 'Z', 'the killed server to be a zombie');

    const started = Date.now();
    const again = await startSite(PREPARED_SITE, { DATA_DIR: dataDir, TRUST_PROXY: '1' });
    t.after(() => again.stop());
    assert.equal(await processState(first.pid), 'Z', 'the old server is still a zombie while the new one serves');
    console.log(`store lock: started again ${Date.now() - started} ms after the kill, its predecessor a zombie`);
    await assertThreadHolds(again.url, bodies);
    await assertThreadHolds(again.url, await writeComments(again.url, 1, 'After the restart'));
  });

  test('a lock file of an earlier version naming a live process that is not a server (a container restarted) does not block a start', async (t) => {
    const dataDir = await mkdtemp(join(WORK, 'unrelated-'));
    const unrelated = spawn('sleep', ['600'], { stdio: 'ignore' });
    t.after(() => unrelated.kill('SIGKILL'));
    await writeFile(join(dataDir, 'lock'), `${unrelated.pid}\n`);
    const site = await startSite(PREPARED_SITE, { DATA_DIR: dataDir, TRUST_PROXY: '1' });
    t.after(() => site.stop());
    await assertThreadHolds(site.url, await writeComments(site.url, 2, 'Despite the old lock'));
    await assert.rejects(stat(join(dataDir, 'lock')), 'the old lock file is removed once the store is open');
  });

  test('a second server and the owner’s data tool on a DATA_DIR the site has open are refused, naming the site’s process', async (t) => {
    const dataDir = await mkdtemp(join(WORK, 'second-'));
    const site = await startSite(PREPARED_SITE, { DATA_DIR: dataDir, TRUST_PROXY: '1' });
    t.after(() => site.stop());
    const message = new RegExp(`The store in ${dataDir} is open in process ${site.pid}\\b`);
    await assert.rejects(startSite(PREPARED_SITE, { DATA_DIR: dataDir }), (error: Error) => {
      assert.match(error.message, /exited \(1\) before listening/);
      assert.match(error.message, message);
      return true;
    });
    const tool = await dataTool(dataDir, 'stats');
    assert.equal(tool.code, 1);
    assert.match(tool.stderr, message);
    // The first one goes on serving.
    await assertThreadHolds(site.url, await writeComments(site.url, 1, 'Still the only one'));
  });
});

/** The permission bits of `dir` ('') and of everything under it, by path. */
async function modesUnder(dir: string): Promise<Record<string, number>> {
  const modes: Record<string, number> = {};
  for (const name of ['', ...(await readdir(dir, { recursive: true }))]) {
    // A compaction may be replacing a snapshot: its temporary file can be gone by now.
    const mode = (await stat(join(dir, name)).catch(() => null))?.mode;
    if (mode !== undefined) modes[name] = mode & 0o777;
  }
  return modes;
}

describe('the embedded store’s files', () => {
  test('a server writes its folders 0700 and every file 0600, while it runs and once it has folded its journal in at stop', async () => {
    const dataDir = await mkdtemp(join(WORK, 'modes-'));
    const site = await startSite(PREPARED_SITE, { DATA_DIR: dataDir, TRUST_PROXY: '1' });
    let stopped = false;
    try {
      await writeComments(site.url, 3, 'Private');
      assert.equal((await post(site.url, '/api/topic-requests', { requestTitle: 'Kept private' }, newReaderAddress())).status, 200);
      const running = await modesUnder(dataDir);
      assert.ok(
        Object.keys(running).some((name) => name.startsWith('journal/')),
        JSON.stringify(running),
      );
      await site.stop();
      stopped = true;
      const closed = await modesUnder(dataDir);
      for (const name of [`articles/${ARTICLE}.json`, 'topic-requests.json', 'ip-hash-salt', 'store.lock'])
        assert.ok(name in closed, `${name} is written: ${JSON.stringify(closed)}`);
      for (const [name, mode] of Object.entries({ ...running, ...closed })) {
        const folder = ['', 'articles', 'journal'].includes(name);
        assert.equal(mode.toString(8), folder ? '700' : '600', name || 'DATA_DIR');
      }
    } finally {
      if (!stopped) await site.stop();
    }
  });
});
