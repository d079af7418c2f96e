import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { dataTool } from '../support/data-tool.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';

const FIXTURES = fileURLToPath(new URL('../support/imports/', import.meta.url));
const WORK = await mkdtemp(join(tmpdir(), 'imports-'));
after(async () => {
  await rm(WORK, { recursive: true, force: true });
  await dropDatabases();
});

/** An isso comments.db, built in WORK from the SQL of its fixture as isso would have written it. */
async function issoDatabase(fixture: string): Promise<string> {
  const file = join(WORK, fixture.replace(/\.sql$/, '.db'));
  const database = new DatabaseSync(file);
  database.exec(await readFile(join(FIXTURES, fixture), 'utf8'));
  database.close();
  return file;
}
const ISSO_DB = await issoDatabase('isso.sql');
/** Written by isso 0.7, before isso kept replies one level deep. */
const ISSO_07_DB = await issoDatabase('isso-0.7.sql');

interface Exported {
  id: string;
  articleSlug: string;
  parentId: string | null;
  depth: number;
  author: string;
  authorHash: string;
  body: string;
  createdAt: string;
}

/** The store `engine` names, new and empty. */
async function freshStore(engine: 'embedded' | 'PostgreSQL'): Promise<Record<string, string>> {
  return {
    DATA_DIR: engine === 'embedded' ? await mkdtemp(join(WORK, 'store-')) : '',
    DATABASE_URL: engine === 'embedded' ? '' : await freshDatabase('imports'),
  };
}

function commentsOf(output: string): Exported[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { kind: string; comment?: Exported })
    .flatMap((record) => (record.kind === 'comment' && record.comment ? [record.comment] : []));
}

/**
 * The thread of five levels both the Artalk and the isso 0.7 fixtures hold,
 * by Ada, Bob, Cy, Ada, Bob, whose first two bodies are `firstBodies`: the
 * fifth level hangs from the third, and one author has one hash.
 */
function assertFiveLevels(thread: Exported[], firstBodies: [string, string]): void {
  assert.deepEqual(
    thread.map(({ author, depth, body }) => [author, depth, body]),
    [
      ['Ada', 1, firstBodies[0]],
      ['Bob', 2, firstBodies[1]],
      ['Cy', 3, 'Level three'],
      ['Ada', 4, 'Level four'],
      ['Bob', 4, 'Level five, shown under level three'],
    ],
  );
  assert.deepEqual(
    thread.map(({ parentId }) => parentId),
    [null, thread[0]?.id, thread[1]?.id, thread[2]?.id, thread[2]?.id],
    'a reply deeper than four levels hangs from the deepest allowed ancestor',
  );
  assert.equal(thread[0]?.authorHash, thread[3]?.authorHash, 'one imported author, one hash');
}

describe('import --from: another comment system’s export', () => {
  for (const engine of ['embedded', 'PostgreSQL'] as const) {
    test(`artalk on the ${engine} store: the counts the dry run printed, once, threaded as the source`, async () => {
      const env = await freshStore(engine);
      const args = ['import', '--from', 'artalk', join(FIXTURES, 'artalk.json'), '--map', join(FIXTURES, 'map.txt')];
      const dry = await dataTool(env, ...args, '--dry-run');
      assert.equal(dry.code, 0, dry.output);
      assert.match(dry.output, /^dry run: nothing written$/m);
      assert.match(dry.output, /^articles matched: 3$/m);
      assert.match(dry.output, /^ {2}a-small-web-server {2}5$/m);
      assert.match(dry.output, /^ {2}the-price-of-a-beer {2}1$/m);
      assert.match(dry.output, /^ {2}https:\/\/old\.example\/about\/ {2}1$/m);
      assert.match(dry.output, /^skipped: pending 1$/m);
      assert.match(dry.output, /^comments to import: 7$/m);
      // Neither an address nor an email of the export is printed.
      assert.doesNotMatch(dry.output, /@example\.com|203\.0\.113|198\.51\.100/);
      assert.equal(commentsOf((await dataTool(env, 'export')).output).length, 0, 'a dry run writes nothing');

      const first = await dataTool(env, ...args);
      assert.match(first.output, /^imported: 7 added, 0 already there$/m);
      const again = await dataTool(env, ...args);
      assert.match(again.output, /^imported: 0 added, 7 already there$/m);

      const stored = commentsOf((await dataTool(env, 'export')).output);
      assert.equal(stored.length, 7);
      assert.doesNotMatch(JSON.stringify(stored), /@example\.com|203\.0\.113|198\.51\.100/);
      const thread = stored.filter(({ articleSlug }) => articleSlug === 'a-small-web-server');
      assertFiveLevels(thread, [
        'Great piece on **small servers** &amp; more: see <https://example.org/a?b=1&c=2>',
        'Agreed, <b>not</b> HTML here.',
      ]);
      assert.notEqual(thread[0]?.authorHash, thread[1]?.authorHash);
      assert.equal(thread[0]?.createdAt, '2021-10-28T12:50:15.000Z');
      assert.deepEqual(
        stored.filter(({ articleSlug }) => articleSlug === 'writing-in-plain-text').map(({ author }) => author),
        ['Anonymous'],
      );
    });

    test(`wordpress on the ${engine} store: HTML made Markdown, spam, trash, pingbacks and trackbacks skipped, once`, async () => {
      const env = await freshStore(engine);
      const args = ['import', '--from', 'wordpress', join(FIXTURES, 'wordpress.xml')];
      const dry = await dataTool(env, ...args, '--dry-run');
      assert.equal(dry.code, 0, dry.output);
      assert.match(dry.output, /^articles matched: 1$/m);
      assert.match(dry.output, /^ {2}a-small-web-server {2}3$/m);
      assert.match(dry.output, /^ {2}https:\/\/old\.example\/about\/ {2}1$/m);
      assert.match(dry.output, /^skipped: spam 1, deleted 1, pingback 1, trackback 1$/m);
      assert.match(dry.output, /^comments to import: 3$/m);
      assert.doesNotMatch(dry.output, /@example\.com|203\.0\.113|198\.51\.100|192\.0\.2/);

      assert.match((await dataTool(env, ...args)).output, /^imported: 3 added, 0 already there$/m);
      assert.match((await dataTool(env, ...args)).output, /^imported: 0 added, 3 already there$/m);
      const stored = commentsOf((await dataTool(env, 'export')).output);
      assert.doesNotMatch(JSON.stringify(stored), /@example\.com|203\.0\.113|198\.51\.100/);
      assert.deepEqual(
        stored.map(({ author, depth, body, createdAt }) => [author, depth, body, createdAt]),
        [
          ['Ada', 1, 'Tom & Jerry liked [this page](https://example.org/x?a=1&b=2).', '2021-10-28T20:50:15.000Z'],
          ['Bob', 2, 'A reply\non two lines', '2021-10-28T21:00:00.000Z'],
          ['Dee', 2, 'Under a deleted comment', '2021-10-29T10:00:00.000Z'],
        ],
      );
      assert.deepEqual(
        stored.map(({ parentId }) => parentId),
        [null, stored[0]?.id, stored[0]?.id],
        'a reply to a deleted comment hangs from its nearest kept ancestor',
      );
    });

    test(`isso on the ${engine} store: its database read as it is, Markdown kept, HTML made Markdown, once`, async () => {
      const env = await freshStore(engine);
      const args = ['import', '--from', 'isso', ISSO_DB, '--map', join(FIXTURES, 'map.txt')];
      const dry = await dataTool(env, ...args, '--dry-run');
      assert.equal(dry.code, 0, dry.output);
      assert.match(dry.output, /^articles matched: 2$/m);
      assert.match(dry.output, /^ {2}a-small-web-server {2}4$/m);
      assert.match(dry.output, /^ {2}the-price-of-a-beer {2}1$/m);
      assert.match(dry.output, /^ {2}\/about\/ {2}1$/m);
      assert.match(dry.output, /^skipped: deleted 1, pending 1$/m);
      assert.match(dry.output, /^comments to import: 5$/m);
      assert.equal(commentsOf((await dataTool(env, 'export')).output).length, 0, 'a dry run writes nothing');

      assert.match((await dataTool(env, ...args)).output, /^imported: 5 added, 0 already there$/m);
      assert.match((await dataTool(env, ...args)).output, /^imported: 0 added, 5 already there$/m);
      const stored = commentsOf((await dataTool(env, 'export')).output);
      assert.doesNotMatch(`${dry.output}${JSON.stringify(stored)}`, /@example\.com|203\.0\.113|198\.51\.100|192\.0\.2/);
      const thread = stored.filter(({ articleSlug }) => articleSlug === 'a-small-web-server');
      assert.deepEqual(
        thread.map(({ author, depth, body, createdAt }) => [author, depth, body, createdAt]),
        [
          ['Gus', 1, 'Moved from Disqus: Tom & Jerry, [a link](https://example.org/?a=1&b=2)', '2021-10-27T02:00:00.000Z'],
          ['Ada', 1, 'Tom &amp; Jerry liked [this page](https://example.org/x?a=1&b=2) &lt;3', '2021-10-28T20:50:15.500Z'],
          ['Bob', 2, 'A reply\non two lines, *emphasised*', '2021-10-28T21:00:00.250Z'],
          ['Dee', 1, 'Under a deleted comment', '2021-10-29T10:00:00.000Z'],
        ],
      );
      assert.deepEqual(
        thread.map(({ parentId }) => parentId),
        [null, null, thread[1]?.id, null],
        'isso keeps replies one level deep; a reply to a deleted top-level comment is top-level',
      );
      assert.deepEqual(
        stored.filter(({ articleSlug }) => articleSlug === 'the-price-of-a-beer').map(({ author }) => author),
        ['Anonymous'],
      );
    });

    test(`isso 0.7's database on the ${engine} store: a reply deeper than four levels under the deepest allowed`, async () => {
      const env = await freshStore(engine);
      const args = ['import', '--from', 'isso', ISSO_07_DB];
      const dry = await dataTool(env, ...args, '--dry-run');
      assert.equal(dry.code, 0, dry.output);
      assert.match(dry.output, /^ {2}a-small-web-server {2}5$/m);
      assert.match(dry.output, /^skipped: none$/m);
      assert.match((await dataTool(env, ...args)).output, /^imported: 5 added, 0 already there$/m);
      assert.match((await dataTool(env, ...args)).output, /^imported: 0 added, 5 already there$/m);
      assertFiveLevels(commentsOf((await dataTool(env, 'export')).output), ['Level one', 'Level two']);
    });

    for (const [source, file, reasons] of [
      ['remark42', 'remark42.jsonl', 'deleted 1'],
      ['disqus', 'disqus.xml', 'spam 1, deleted 1'],
    ] as const) {
      test(`${source} on the ${engine} store: ${reasons} skipped, a reply to a deleted comment kept, once`, async () => {
        const env = await freshStore(engine);
        const args = ['import', '--from', source, join(FIXTURES, file)];
        const dry = await dataTool(env, ...args, '--dry-run');
        assert.equal(dry.code, 0, dry.output);
        assert.match(dry.output, /^ {2}a-small-web-server {2}3$/m);
        assert.match(dry.output, /^ {2}https:\/\/old\.example\/about\/ {2}1$/m);
        assert.match(dry.output, new RegExp(`^skipped: ${reasons}$`, 'm'));
        assert.match(dry.output, /^comments to import: 3$/m);
        assert.match((await dataTool(env, ...args)).output, /^imported: 3 added, 0 already there$/m);
        assert.match((await dataTool(env, ...args)).output, /^imported: 0 added, 3 already there$/m);
        const stored = commentsOf((await dataTool(env, 'export')).output);
        assert.doesNotMatch(`${dry.output}${JSON.stringify(stored)}`, /@example\.com|203\.0\.113|198\.51\.100/);
        assert.deepEqual(
          stored.map(({ author, depth, body, parentId }) => [author, depth, body, parentId]),
          [
            ['Ada', 1, 'Tom & Jerry liked [this page](https://example.org/x?a=1&b=2).', null],
            ['Bob', 2, 'A reply', stored[0]?.id],
            ['Dee', 2, 'Under a deleted comment', stored[0]?.id],
          ],
        );
      });
    }
  }
});
