import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { replaceDurably } from '../../src/server/store/embedded/files.ts';
import { copiedForWriting, jsonPieces } from '../../src/server/store/embedded/json-pieces.ts';

const joined = (document: Record<string, unknown>) => [...jsonPieces(document)].join('');

describe('a snapshot document written in pieces', () => {
  test('the pieces make exactly JSON.stringify of the document', () => {
    const comments = Array.from({ length: 1001 }, (_, index) => ({
      id: `c${index}`,
      body: `Comment "${index}" \u2028 é`,
      deletedAt: null,
      score: index - 500,
    }));
    const documents: Record<string, unknown>[] = [
      {},
      { format: 1, items: [] },
      { format: 1, slug: 'a', journalSeq: 7, score: -2, comments, votes: [{ voter: 'v', commentId: null, vote: 1 }] },
      { only: comments.slice(0, 200) },
      { left: undefined, nested: { a: [1, 2] }, list: [null, 1, 'two', { three: 3 }] },
    ];
    for (const document of documents) assert.equal(joined(document), JSON.stringify(document));
  });

  test('a long array comes in several pieces, none of them the whole document', () => {
    const document = { items: Array.from({ length: 1000 }, (_, index) => ({ index })) };
    const pieces = [...jsonPieces(document)];
    assert.ok(pieces.length >= 5, `${pieces.length} pieces`);
    const whole = JSON.stringify(document).length;
    for (const piece of pieces) assert.ok(piece.length < whole / 4);
  });

  test('the copy keeps the arrays as they were when it was made: items added, removed or replaced later are not in it', () => {
    const first = { id: 'c1', body: 'kept', score: 0 };
    const document = { score: 1, comments: [first, { id: 'c2', body: 'removed later', score: 0 }] };
    const copy = copiedForWriting(document);
    document.score = 2;
    document.comments[0] = { ...first, score: 5 };
    document.comments.splice(1, 1);
    document.comments.push({ id: 'c3', body: 'later', score: 0 });
    assert.equal(joined(copy), '{"score":1,"comments":[{"id":"c1","body":"kept","score":0},{"id":"c2","body":"removed later","score":0}]}');
  });

  test('a document of several megabytes (flushed as it is written) replaces its file whole, with no temporary file left', async (t) => {
    const directory = await mkdtemp(join(tmpdir(), 'json-pieces-'));
    t.after(() => rm(directory, { recursive: true, force: true }));
    const file = join(directory, 'thread.json');
    await writeFile(file, '{"old":true}');
    const document = { comments: Array.from({ length: 30_000 }, (_, index) => ({ id: `c${index}`, body: 'é'.repeat(100) })) };
    const bytes = await replaceDurably(file, jsonPieces(document));
    const text = await readFile(file, 'utf8');
    assert.ok(bytes > 5 * 1024 * 1024, `${bytes} bytes`);
    assert.equal(bytes, Buffer.byteLength(text));
    assert.equal(text, JSON.stringify(document));
    assert.deepEqual(await readdir(directory), ['thread.json']);
  });
});
