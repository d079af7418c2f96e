import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readKeptFacts, writeKeptFacts } from '../../src/build/kept-facts.ts';

test("a build's kept facts are read back as written; a missing or damaged record is an empty memo", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kept-facts-'));
  try {
    assert.equal((await readKeptFacts(dir)).known.size, 0, 'no record');
    const facts = { readingTime: 3, outdated: true, digest: 'abc' };
    await writeKeptFacts(dir, { known: new Map(), made: new Map([['first/fr d1 d2', facts]]) });
    assert.deepEqual(await readdir(dir), ['facts.json'], 'written whole, then moved into place');
    assert.deepEqual([...(await readKeptFacts(dir)).known], [['first/fr d1 d2', facts]]);
    await writeFile(join(dir, 'facts.json'), '[["first/fr d1 d2", 3, tr');
    assert.equal((await readKeptFacts(dir)).known.size, 0, 'a record cut short');
    await writeFile(join(dir, 'facts.json'), '{}');
    assert.equal((await readKeptFacts(dir)).known.size, 0, 'a record of another shape');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
