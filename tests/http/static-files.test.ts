import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from '../support/http.ts';
import { copyOfPreparedSite, startSite, type RunningSite } from '../support/site.ts';

/**
 * Built pages answered from disk, none held in memory (STATIC_CACHE_MIB=0),
 * on a copy of the prepared site that the tests change under the server.
 */
let dir = '';
let site: RunningSite;
before(async () => {
  dir = await copyOfPreparedSite();
  site = await startSite(dir, { STATIC_CACHE_MIB: '0' });
});
after(() => site.stop());

const client = (path: string) => join(dir, 'dist', 'client', path);

describe('a page read from disk', () => {
  // A page without a thread: an article page is sent with its thread in it (thread-in-page.test.ts).
  const PAGE = '/projects';
  const FILE = 'projects/index.html';

  test('is sent byte for byte as built, in identity, gzip and brotli, with its type, ETag, Vary and 304', async () => {
    const manifest = JSON.parse(await readFile(join(dir, 'dist', 'static-files.json'), 'utf8')) as {
      files: { file: string; etag: string }[];
    };
    const etag = manifest.files.find((entry) => entry.file === FILE)?.etag;
    assert.ok(etag, 'the build lists the page in its manifest');
    for (const [encoding, suffix] of [
      ['identity', ''],
      ['gzip', '.gz'],
      ['br', '.br'],
    ] as const) {
      const answer = await request(`${site.url}${PAGE}`, { headers: { 'Accept-Encoding': encoding } });
      assert.equal(answer.status, 200, encoding);
      assert.deepEqual(answer.body, await readFile(client(FILE + suffix)), encoding);
      assert.equal(answer.headers['content-encoding'], encoding === 'identity' ? undefined : encoding);
      assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(answer.headers['etag'], etag);
      assert.equal(answer.headers['vary'], 'Accept, Accept-Encoding');
      assert.equal(answer.headers['content-length'], String(answer.body.length));
    }
    const again = await request(`${site.url}${PAGE}`, { headers: { 'If-None-Match': etag, 'Accept-Encoding': 'br' } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const twin = await request(`${site.url}${PAGE}`, { headers: { Accept: 'text/markdown' } });
    assert.equal(twin.headers['content-type'], 'text/markdown; charset=utf-8');
    assert.deepEqual(twin.body, await readFile(client('projects.md')));
  });

  test('removed from disk, answers 404 rather than what it held', async () => {
    const page = '/fr/articles/writing-in-plain-text';
    assert.equal((await request(`${site.url}${page}`)).status, 200);
    for (const suffix of ['', '.br', '.gz']) await rm(client(`fr/articles/writing-in-plain-text/index.html${suffix}`), { force: true });
    const gone = await request(`${site.url}${page}`, { headers: { 'Accept-Encoding': 'br' } });
    assert.equal(gone.status, 404);
    assert.doesNotMatch(gone.text, /writing-in-plain-text/);
  });

  test('changed on disk, is sent as it is now, under the ETag of what it holds', async () => {
    const page = '/de/articles/writing-in-plain-text';
    const before = await request(`${site.url}${page}`);
    assert.equal(before.status, 200);
    const changed = before.text.replace('</body>', '<p>Changed by hand.</p></body>');
    await writeFile(client('de/articles/writing-in-plain-text/index.html'), changed);
    for (const encoding of ['identity', 'br', 'gzip']) {
      const now = await request(`${site.url}${page}`, { headers: { 'Accept-Encoding': encoding } });
      assert.equal(now.status, 200);
      assert.equal(now.text, changed, encoding);
      assert.notEqual(now.headers['etag'], before.headers['etag']);
    }
  });
});
