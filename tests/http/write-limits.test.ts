import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { startFakeCaptcha } from '../support/fake-captcha.ts';
import { request } from '../support/http.ts';
import { copyOfPreparedSite, PREPARED_SITE, startSite } from '../support/site.ts';
import { get, newReaderAddress, post } from '../support/writes.ts';

const ARTICLE = 'the-price-of-a-beer';
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('captcha', () => {
  // The site key is baked into pages: a copy of the site, rebuilt with it once, never the one the other tests serve.
  let captchaSite = '';
  before(async () => {
    captchaSite = await copyOfPreparedSite();
  });

  test('enabled: missing or rejected token 400, accepted 200, provider failing or slow 502; votes need none', async () => {
    const provider = await startFakeCaptcha();
    const site = await startSite(captchaSite, {
      TRUST_PROXY: '1',
      CAPTCHA_SITE_KEY: 'site',
      CAPTCHA_SECRET: 'secret',
      CAPTCHA_VERIFY_URL: provider.url,
    });
    try {
      const address = newReaderAddress();
      const missing = await post(site.url, '/api/topic-requests', { requestTitle: 'Night trains' }, address);
      assert.equal(missing.status, 400);
      assert.match(String(missing.json()['error']), /captchaToken/);
      assert.equal(
        (await post(site.url, '/api/topic-requests', { requestTitle: 'Night trains', captchaToken: 'bad' }, address)).status,
        400,
      );
      const accepted = await post(site.url, '/api/topic-requests', { requestTitle: 'Night trains', captchaToken: 'good' }, address);
      assert.equal(accepted.status, 200);
      assert.equal(accepted.headers['ratelimit-remaining'], '4', 'refused captchas spent no quota');
      assert.equal(provider.seen.at(-1)?.get('remoteip'), address, 'the provider gets the reader address it asks for');
      assert.equal(
        (await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'hi', captchaToken: 'good' }, address)).status,
        200,
      );
      assert.equal((await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address)).status, 200);
      provider.mode.value = 'fail';
      const failing = await post(site.url, '/api/bug-reports', { description: 'x', captchaToken: 'good' }, address);
      assert.equal(failing.status, 502);
      assert.match(String(failing.json()['error']), /captcha provider/);
      assert.equal(failing.json()['requestId'], failing.headers['x-request-id']);
      provider.mode.value = 'hang';
      const started = Date.now();
      assert.equal((await post(site.url, '/api/bug-reports', { description: 'x', captchaToken: 'good' }, address)).status, 502);
      assert.ok(Date.now() - started < 6000, 'a slow provider is given up on');
    } finally {
      await site.stop();
      await provider.close();
    }
  });

  test('unreachable provider: 502', async () => {
    const site = await startSite(captchaSite, {
      TRUST_PROXY: '1',
      CAPTCHA_SITE_KEY: 'site',
      CAPTCHA_SECRET: 'secret',
      CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
    });
    try {
      assert.equal(
        (await post(site.url, '/api/topic-requests', { requestTitle: 'Trains', captchaToken: 'good' }, newReaderAddress())).status,
        502,
      );
    } finally {
      await site.stop();
    }
  });

  test('only one of key and secret set: captcha routes answer 500 with a requestId, votes still work', async () => {
    const site = await startSite(captchaSite, { TRUST_PROXY: '1', CAPTCHA_SITE_KEY: 'site' });
    try {
      const address = newReaderAddress();
      const answer = await post(site.url, '/api/topic-requests', { requestTitle: 'Trains', captchaToken: 'good' }, address);
      assert.equal(answer.status, 500);
      assert.equal(answer.json()['requestId'], answer.headers['x-request-id']);
      assert.match(String(answer.json()['error']), /CAPTCHA_SITE_KEY and CAPTCHA_SECRET/);
      await site.printed(new RegExp(`${String(answer.json()['requestId'])} answered 500: The captcha is misconfigured`));
      assert.equal((await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address)).status, 200);
    } finally {
      await site.stop();
    }
  });
});

for (const [kind, env] of [
  ['memory', {}],
  ['Redis', { REDIS_URL }],
] as const) {
  describe(`quotas and the ban (${kind})`, () => {
    test('5 topic requests a day, counted across parallel writes; the 6th answers 429', async () => {
      const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', ...env });
      try {
        const address = newReaderAddress();
        const answers = await Promise.all(
          Array.from({ length: 12 }, (_, i) => post(site.url, '/api/topic-requests', { requestTitle: `Topic ${i}` }, address)),
        );
        assert.equal(answers.filter((answer) => answer.status === 200).length, 5);
        const refused = answers.filter((answer) => answer.status === 429);
        assert.equal(refused.length, 7);
        assert.ok(
          refused.every((answer) => Number(answer.headers['retry-after']) > 86_000 && answer.headers['ratelimit-remaining'] === '0'),
        );
      } finally {
        await site.stop();
      }
    });

    test('the 100th comment within 5 minutes is stored, then every write answers 429 for 48 hours', async () => {
      const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', ...env });
      try {
        const address = newReaderAddress();
        for (let i = 1; i <= 100; i++) {
          const answer = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: `comment ${i}` }, address);
          assert.equal(answer.status, 200, `comment ${i}`);
        }
        for (const [path, body] of [
          ['/api/comments', { articleSlug: ARTICLE, body: 'one more' }],
          ['/api/votes', { articleSlug: ARTICLE, value: 1 }],
          ['/api/topic-requests', { requestTitle: 'Banned?' }],
        ] as const) {
          const refused = await post(site.url, path, body, address);
          assert.equal(refused.status, 429, path);
          const retryAfter = Number(refused.headers['retry-after']);
          assert.ok(retryAfter > 48 * 3600 - 120 && retryAfter <= 48 * 3600, `${path}: Retry-After ${retryAfter}`);
          assert.ok(refused.headers['ratelimit']);
        }
        assert.equal((await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'not banned' }, newReaderAddress())).status, 200);
      } finally {
        await site.stop();
      }
    });
  });
}

test('Redis unreachable: writes answer 503 JSON after a bounded wait, reads still work', async () => {
  const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', REDIS_URL: 'redis://127.0.0.1:9' });
  try {
    const started = Date.now();
    const answer = await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, newReaderAddress());
    assert.equal(answer.status, 503);
    assert.match(String(answer.json()['error']), /rate limits could not be checked/);
    assert.ok(Date.now() - started < 5000);
    assert.equal((await post(site.url, '/api/topic-requests', { requestTitle: 'Trains' }, newReaderAddress())).status, 503);
    assert.equal((await request(`${site.url}/api/articles`)).status, 200);
  } finally {
    await site.stop();
  }
});

test('a SIGKILL during a write storm loses no answered write, and every file still parses', async () => {
  const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1' });
  const regular = newReaderAddress();
  const nameBefore = (await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'before' }, regular)).json()['author'];
  const acknowledged: string[] = [];
  let stop = false;
  const writer = async (n: number) => {
    const address = newReaderAddress();
    for (let i = 0; !stop && i < 100; i++) {
      try {
        const answer = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: `storm ${n}.${i}` }, address);
        if (answer.status === 200) acknowledged.push(String(answer.json()['id']));
      } catch {
        return; // the server is gone
      }
    }
  };
  const storm = Promise.all(Array.from({ length: 20 }, (_, n) => writer(n)));
  while (acknowledged.length < 200) await new Promise((resolve) => setImmediate(resolve));
  await site.kill();
  stop = true;
  await storm;
  const restarted = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', DATA_DIR: site.dataDir });
  try {
    // Each answered id must be there: vote on each one, which needs the comment to exist.
    const voter = newReaderAddress();
    const missing: string[] = [];
    for (const id of acknowledged.slice(0, 59)) {
      const answer = await post(restarted.url, '/api/votes', { articleSlug: ARTICLE, commentId: id, value: 1 }, voter);
      if (answer.status !== 200) missing.push(id);
    }
    assert.deepEqual(missing, []);
    const mine = (await get(restarted.url, `/api/votes?slug=${ARTICLE}`, voter)).json<{ comments: Record<string, number> }>();
    assert.equal(Object.keys(mine.comments).length, 59);
    const nameAfter = (await post(restarted.url, '/api/comments', { articleSlug: ARTICLE, body: 'after' }, regular)).json()['author'];
    assert.equal(nameAfter, nameBefore, 'a reader keeps its name across restarts');
    const files = (await readdir(site.dataDir, { recursive: true })).filter((file) => file.endsWith('.json'));
    assert.ok(files.length > 0);
    for (const file of files) JSON.parse(await readFile(join(site.dataDir, file), 'utf8'));
  } finally {
    await restarted.stop();
  }
});

test('no client address is written to the store or the log', async () => {
  const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1' });
  const addresses = [newReaderAddress(), newReaderAddress(), newReaderAddress()];
  try {
    for (const address of addresses) {
      await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'hello' }, address);
      await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address);
      await post(site.url, '/api/topic-requests', { requestTitle: 'Some topic' }, address);
      await post(site.url, '/api/bug-reports', { description: 'broken', pagePath: '/x' }, address);
      await post(site.url, '/api/comments', { articleSlug: 'nope', body: 'x' }, address);
    }
  } finally {
    await site.stop();
  }
  const files = await readdir(site.dataDir, { recursive: true, withFileTypes: true });
  let stored = '';
  for (const file of files.filter((entry) => entry.isFile())) stored += await readFile(join(file.parentPath, file.name), 'latin1');
  assert.ok(stored.length > 0);
  for (const address of addresses) {
    assert.ok(!stored.includes(address), `${address} in the store`);
    assert.ok(!site.output().includes(address), `${address} in the log`);
  }
  // The socket's own address (the proxy here) is not kept either.
  assert.ok(!stored.includes('127.0.0.1'));
});

test('a build without its city index stops the server at start-up, naming the file and what writes it', async () => {
  // The build's server run as `npm start` runs it once the build is current, from a folder that holds no data/cities/.
  const dir = await mkdtemp(join(tmpdir(), 'longhand-no-cities-'));
  try {
    for (const name of ['dist', 'node_modules', 'scripts', 'package.json']) await symlink(join(PREPARED_SITE, name), join(dir, name));
    const server = spawn(process.execPath, ['scripts/serve.mjs'], {
      cwd: dir,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(dir, 'store') },
    });
    let output = '';
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A server that started instead would listen for good: it is stopped, and its exit code is then null.
    const stopIfListening = setTimeout(() => server.kill('SIGKILL'), 10_000);
    const [code] = (await once(server, 'exit')) as [number | null];
    clearTimeout(stopIfListening);
    assert.equal(code, 1, output);
    assert.match(output, /The server cannot start: Cannot read the city index data\/cities\/index\.json: npm run build/);
    assert.doesNotMatch(output, /Serving/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a corrupt store file stops start-up with its name, and is left as it was', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'longhand-corrupt-'));
  const corrupt = join(dataDir, 'topic-requests.json');
  await writeFile(corrupt, '{"format":1,"items":[{"id":');
  try {
    await assert.rejects(startSite(PREPARED_SITE, { DATA_DIR: dataDir }), /topic-requests\.json/);
    assert.equal(await readFile(corrupt, 'utf8'), '{"format":1,"items":[{"id":');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
