import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FileManifest, manifestPath, writeFileManifest, type ManifestFile } from '../../src/server/front/file-manifest.ts';
import { StaticFiles } from '../../src/server/front/static-files.ts';

async function clientFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'static-files-'));
  await mkdir(join(dir, 'client'));
  return join(dir, 'client');
}

function entry(file: string, index: number): ManifestFile {
  const stamp = (offset: number) => ({ size: 100 + index + offset, mtimeMs: 1_795_907_785_123.5 + index * 1000 });
  return index % 2 === 0
    ? { file, etag: `"etag-${index}"`, bodies: { identity: stamp(0), br: stamp(1), gzip: stamp(2) } }
    : { file, etag: `"etag-${index}"`, bodies: { identity: stamp(0) } };
}

describe('the file manifest', () => {
  const names = ['b/index.html', 'index.html', 'a "quoted"\tname.txt', 'é/index.html', '日本/記事.md', 'a/index.html', 'a.css', 'z'];

  test('finds every file it was written with, by name, and no other', async () => {
    const client = await clientFolder();
    try {
      const written = names.map(entry);
      await writeFileManifest(client, written);
      const manifest = await FileManifest.read(client);
      assert.equal(manifest.size, names.length);
      for (const [index, name] of names.entries()) {
        const found = manifest.find(name);
        // Times are kept to the second.
        const expected = entry(name, index);
        for (const stamp of Object.values(expected.bodies)) stamp.mtimeMs = Math.floor(stamp.mtimeMs / 1000) * 1000;
        assert.deepEqual(found, expected, name);
      }
      for (const missing of ['', 'a', 'a/', 'b', 'index.htm', 'zz', '日本']) assert.equal(manifest.find(missing), undefined, missing);
      assert.deepEqual(
        [...manifest.entries()].map(({ file }) => file),
        [...names].sort(),
      );
    } finally {
      await rm(join(client, '..'), { recursive: true });
    }
  });

  test('finds each of many files, over many blocks, and none between them', async () => {
    const client = await clientFolder();
    try {
      const many = Array.from({ length: 500 }, (_, at) => `articles/${String((at * 7919) % 500).padStart(3, '0')}/index.html`);
      await writeFileManifest(client, many.map(entry));
      const manifest = await FileManifest.read(client);
      for (const [index, name] of many.entries()) assert.equal(manifest.find(name)?.etag, `"etag-${index}"`, name);
      for (const missing of ['articles/000', 'articles/0005/index.html', 'articles/499/index.htm', 'articles/5', 'zz', 'a']) {
        assert.equal(manifest.find(missing), undefined, missing);
      }
    } finally {
      await rm(join(client, '..'), { recursive: true });
    }
  });

  test('written out of order by hand, is refused rather than searched wrongly', async () => {
    const client = await clientFolder();
    try {
      await writeFile(manifestPath(client), '"b"\t["\\"1\\"",1,1,null,null,null,null]\n"a"\t["\\"2\\"",1,1,null,null,null,null]\n');
      await assert.rejects(FileManifest.read(client), /line 2 is out of order/);
    } finally {
      await rm(join(client, '..'), { recursive: true });
    }
  });
});

describe('the built files', () => {
  test('answer a folder page with and without its slash, never under index.html, and a file only without a slash', async () => {
    const client = await clientFolder();
    const files = ['index.html', 'a/index.html', 'a/b/index.html', 'notes.txt', 'a/style.css'];
    try {
      for (const file of files) {
        await mkdir(join(client, file, '..'), { recursive: true });
        await writeFile(join(client, file), file);
      }
      // No manifest: one is made from the files themselves.
      const served = await StaticFiles.open(client, { cacheBytes: 0 });
      try {
        const found = (path: string) => served.get(path)?.file;
        assert.equal(found('/'), 'index.html');
        assert.equal(found('/a'), 'a/index.html');
        assert.equal(found('/a/'), 'a/index.html');
        assert.equal(found('/a/b/'), 'a/b/index.html');
        assert.equal(found('/notes.txt'), 'notes.txt');
        assert.equal(found('/a/style.css'), 'a/style.css');
        assert.equal(served.get('/a/style.css')?.contentType, 'text/css; charset=utf-8');
        for (const path of ['/index.html', '/a/index.html', '/notes.txt/', '/b', '/a/b/c']) assert.equal(found(path), undefined, path);
        assert.equal(served.get('/a'), served.get('/a/'), 'one object a file, however it is asked for');
      } finally {
        served.close();
      }
    } finally {
      await rm(join(client, '..'), { recursive: true });
    }
  });
});
