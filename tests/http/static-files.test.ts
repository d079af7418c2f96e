import assert from 'node:assert/strict';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FileManifest, writeFileManifest } from '../../src/server/front/file-manifest.ts';
import { etagOf } from '../../src/server/http/etag.ts';
import { request } from '../support/http.ts';
import { freePort } from '../support/ports.ts';
import { copyOfPreparedSite, PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

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
    const etag = (await FileManifest.read(client(''))).find(FILE)?.etag;
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

  test('past 1 MiB, is streamed from disk byte for byte, in identity and gzip; HEAD sends its length only', async () => {
    const file = 'large/notes.txt';
    const identity = Buffer.from('A line of a long text, again and again.\n'.repeat(80_000));
    await mkdir(client('large'), { recursive: true });
    await writeFile(client(file), identity);
    await writeFile(client(`${file}.gz`), gzipSync(identity));
    const stamp = async (path: string) => {
      const info = await stat(path);
      return { size: info.size, mtimeMs: info.mtimeMs };
    };
    const files = [...(await FileManifest.read(client(''))).entries()];
    files.push({ file, etag: etagOf(identity), bodies: { identity: await stamp(client(file)), gzip: await stamp(client(`${file}.gz`)) } });
    // As a build writes it: whole, then moved into place, which the server watches for.
    await writeFileManifest(client(''), files);
    const url = `${site.url}/${file}`;
    let plain = await request(url);
    for (let waited = 0; plain.status === 404 && waited < 50; waited += 1) {
      await new Promise((done) => setTimeout(done, 100));
      plain = await request(url);
    }
    assert.equal(plain.status, 200);
    assert.ok(plain.body.equals(identity), 'identity, byte for byte');
    assert.equal(plain.headers['content-length'], String(identity.length));
    const gzipped = await request(url, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.ok(gzipped.body.equals(await readFile(client(`${file}.gz`))), 'gzip, byte for byte');
    const head = await request(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-length'], String(identity.length));
    assert.equal(head.body.length, 0);
    const again = await request(url, { headers: { 'If-None-Match': etagOf(identity) } });
    assert.equal(again.status, 304);
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

describe('the built files held in memory', () => {
  /** A budget far smaller than the articles' twins: 32 KiB. */
  const BUDGET_MIB = 32 / 1024;

  test('never pass their byte budget, however many twins are read again, and every one still answers whole', async () => {
    const port = await freePort();
    const budgeted = await startSite(PREPARED_SITE, { STATIC_CACHE_MIB: String(BUDGET_MIB), METRICS_PORT: String(port) });
    try {
      const manifest = await FileManifest.read(join(PREPARED_SITE, 'dist', 'client'));
      // The articles' Markdown twins: built files sent as built (an article's page gets its thread put in).
      const built = [...manifest.entries()].filter(({ file, bodies }) => file.endsWith('.md') && file.includes('articles/') && bodies.br);
      const path = (file: string) => `${budgeted.url}/${file}`;
      // Future-dated articles are built but held back (404): the published ones are read.
      const published = await Promise.all(built.map(async (page) => ((await request(path(page.file))).status === 200 ? page : undefined)));
      const pages = published.filter((page) => page !== undefined);
      assert.ok(pages.length >= 40, `the fixture has twins enough to pass the budget (${pages.length})`);
      const held = async () => {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        const figure = (name: string) => Number(new RegExp(`^${name}\\{cache="files"\\} (\\S+)$`, 'm').exec(text)?.[1]);
        return { entries: figure('longhand_cache_entries'), bytes: figure('longhand_cache_bytes') };
      };
      for (let round = 0; round < 3; round += 1) {
        for (const { file, bodies } of pages) {
          const answer = await request(path(file), { headers: { 'Accept-Encoding': 'br' } });
          assert.equal(answer.status, 200, file);
          assert.equal(answer.body.length, bodies.br?.size, file);
        }
        const { entries, bytes } = await held();
        assert.ok(bytes <= BUDGET_MIB * 1024 * 1024, `round ${round}: ${bytes} bytes held`);
        if (round > 0) assert.ok(entries > 0 && bytes > 0, `round ${round}: pages read again are held (${entries})`);
      }
    } finally {
      await budgeted.stop();
    }
  });
});
