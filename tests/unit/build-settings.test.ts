import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { BUILD_MARK, BUILD_SETTINGS, buildIsStale, buildSettings, setAsideLastBuild } from '../../scripts/build-site.ts';
import { CITY_INDEX_PATH } from '../../src/server/cities/index-file.ts';
import { LOOKUPS_PATH } from '../../src/server/cities/saved-lookups.ts';
import { newsletterSettings, pageFeatures } from '../../src/server/settings/environment.ts';
import { SETTINGS } from '../../src/server/settings/schema.ts';

const saved = { ...process.env };
beforeEach(() => {
  for (const name of Object.keys(SETTINGS)) Reflect.deleteProperty(process.env, name);
});
afterEach(() => {
  process.env = { ...saved };
});

describe('NEWSLETTER and FEDERATION as the build reads them', () => {
  test('each alone, without the rules a server is held to: NEWSLETTER=on builds without SMTP_URL', () => {
    assert.deepEqual(pageFeatures(), { newsletter: false, federation: false });
    Object.assign(process.env, { NEWSLETTER: 'on', FEDERATION: 'on' });
    assert.deepEqual(pageFeatures(), { newsletter: true, federation: true });
    assert.throws(() => newsletterSettings(), /NEWSLETTER=on needs SMTP_URL/, 'the server still refuses to start so');
  });

  test('a build made with either set otherwise is built again by npm start', async () => {
    const root = await mkdtemp(join(tmpdir(), 'longhand-build-settings-'));
    try {
      for (const path of [CITY_INDEX_PATH, LOOKUPS_PATH, BUILD_MARK]) {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), '');
      }
      Object.assign(process.env, { NEWSLETTER: 'on' });
      await writeFile(join(root, BUILD_SETTINGS), buildSettings());
      assert.equal(await buildIsStale(root), false, 'built with the settings in effect');
      process.env['FEDERATION'] = 'on';
      assert.equal(await buildIsStale(root), true, 'FEDERATION turned on');
      process.env['FEDERATION'] = 'off';
      process.env['NEWSLETTER'] = 'off';
      assert.equal(await buildIsStale(root), true, 'NEWSLETTER turned off');
      process.env['NEWSLETTER'] = 'on';
      assert.equal(await buildIsStale(root), false, 'as built again');
      await rm(join(root, LOOKUPS_PATH));
      assert.equal(await buildIsStale(root), true, 'the city lookups missing');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('the last build, set aside before a build', () => {
  async function lastBuild(dist: string): Promise<void> {
    await mkdir(join(dist, 'client', 'articles'), { recursive: true });
    await writeFile(join(dist, 'client', 'articles', 'index.html'), 'old page');
    await writeFile(join(dist, 'static-files.tsv'), 'old manifest');
  }

  test('leaves dist/ empty, and its files removed once `removed` resolves', async () => {
    const root = await mkdtemp(join(tmpdir(), 'longhand-set-aside-'));
    try {
      await lastBuild(join(root, 'dist'));
      const { removed } = await setAsideLastBuild(root);
      assert.deepEqual(await readdir(join(root, 'dist')), []);
      await removed;
      assert.deepEqual(await readdir(join(root, '.cache')), []);
    } finally {
      await rm(root, { recursive: true });
    }
  });

  test('on another file system than the checkout, leaves the files where they are for Astro to empty', async (t) => {
    const elsewhere = '/dev/shm';
    const root = await mkdtemp(join(tmpdir(), 'longhand-set-aside-'));
    const volume = await mkdtemp(join(elsewhere, 'longhand-dist-')).catch(() => undefined);
    try {
      if (!volume || (await stat(volume)).dev === (await stat(root)).dev) {
        t.skip(`${elsewhere} is not another file system here`);
        return;
      }
      await lastBuild(volume);
      await symlink(volume, join(root, 'dist'));
      const { removed } = await setAsideLastBuild(root);
      await removed;
      assert.deepEqual((await readdir(join(root, 'dist'))).sort(), ['client', 'static-files.tsv']);
    } finally {
      await rm(root, { recursive: true });
      if (volume) await rm(volume, { recursive: true });
    }
  });
});
