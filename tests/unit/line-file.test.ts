import assert from 'node:assert/strict';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { LineFile } from '../../src/server/line-files/line-file.ts';

/** Lines of every length up to a few kilobytes, some not in Latin script: the file passes the chunks it is read through in. */
const WRITTEN = Array.from({ length: 3000 }, (_, at) => `${at}\t${'é日x'.repeat(at % 400)}`);
const TEXT = WRITTEN.map((line) => `${line}\n`).join('');

describe('a line file', () => {
  test('gives back each line by number, runs of lines, and all in order, from a file or from memory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'line-file-'));
    const file = LineFile.open(await writeText(dir, TEXT));
    try {
      for (const lines of [file, LineFile.of(Buffer.from(TEXT))]) {
        assert.equal(lines.size, WRITTEN.length);
        assert.deepEqual([...lines], WRITTEN);
        for (let at = WRITTEN.length - 1; at >= 0; at -= 7) assert.equal(lines.line(at), WRITTEN[at]);
        assert.deepEqual(lines.lines(100, 140), WRITTEN.slice(100, 140));
        assert.throws(() => lines.line(WRITTEN.length), RangeError);
        assert.throws(() => lines.lines(5, 5), RangeError);
      }
    } finally {
      file.close();
      await rm(dir, { recursive: true });
    }
  });

  test('leaves out what follows the last line feed, and keeps empty lines', () => {
    assert.deepEqual([...LineFile.of(Buffer.from('a\n\nc\nunfinished'))], ['a', '', 'c']);
    assert.equal(LineFile.of(Buffer.from('')).size, 0);
  });

  test('replaced on disk by a new file, reads on as it was opened until it is closed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'line-file-'));
    try {
      const path = await writeText(dir, 'old one\nold two\n');
      const lines = LineFile.open(path);
      await writeFile(`${path}.new`, 'new one\nnew two\nnew three\n');
      await rename(`${path}.new`, path);
      assert.deepEqual([...lines], ['old one', 'old two']);
      lines.close();
      assert.deepEqual([...LineFile.open(path)], ['new one', 'new two', 'new three']);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  test('that does not exist, fails to open as the file system says', () => {
    assert.throws(() => LineFile.open(join(tmpdir(), 'no-such-line-file')), { code: 'ENOENT' });
  });
});

async function writeText(dir: string, text: string): Promise<string> {
  const path = join(dir, 'lines.txt');
  await writeFile(path, text);
  return path;
}
