import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import { runTranslationsTool } from '../../src/server/articles/translations-tool.ts';
import { englishStamp } from '../../src/server/articles/translation-stamp.ts';

const root = await mkdtemp(join(tmpdir(), 'longhand-translations-'));
after(() => rm(root, { recursive: true, force: true }));

async function run(...args: string[]): Promise<{ code: number; stdout: string }> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const code = await runTranslationsTool(args, root, { stdout, stderr: new PassThrough() });
  return { code, stdout: text };
}

describe('npm run translations -- mark', () => {
  test('writes the stamp into the front matter, replacing an old one, and leaves every other byte as it was', async () => {
    await mkdir(join(root, 'crlf'), { recursive: true });
    await writeFile(join(root, 'crlf/en.md'), '---\r\ntitle: "T"\r\ndate: 2026-01-01\r\nexcerpt: "E"\r\n---\r\n\r\nThe English body.\r\n');
    const french = '---\r\ntitle: "T fr"\r\ntranslatedFrom: "000000000000" # old\r\nexcerpt: "E"\r\n---\r\n\r\nLe corps.\r\n';
    await writeFile(join(root, 'crlf/fr.md'), french);
    await writeFile(join(root, 'crlf/de.mdx'), '---\ntitle: "T de"\n---\nDer Text.\n');

    assert.equal((await run('mark', 'crlf', '--all')).code, 0);
    const stamp = englishStamp('The English body.');
    assert.equal(await readFile(join(root, 'crlf/fr.md'), 'utf8'), french.replace('"000000000000" # old', `"${stamp}"`));
    assert.equal(await readFile(join(root, 'crlf/de.mdx'), 'utf8'), `---\ntitle: "T de"\ntranslatedFrom: "${stamp}"\n---\nDer Text.\n`);
    assert.match((await run('mark', 'crlf', 'fr')).stdout, /crlf\/fr: already current/);
  });
});
