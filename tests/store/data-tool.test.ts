import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openEmbeddedStore } from '../../src/server/store/embedded/engine.ts';
import type { ExportRecord } from '../../src/server/store/types.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { newComment, PARIS_SUBMISSION, replay } from '../support/store-contract.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORK = await mkdtemp(join(tmpdir(), 'data-tool-'));
after(async () => {
  await rm(WORK, { recursive: true, force: true });
  await dropDatabases();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run data -- …` as the owner runs it, on the store `env` names. */
function dataTool(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/data.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: '', DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Decoded as a stream: a character may be split across chunks.
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the owner’s data tool', () => {
  test('--help, a wrong command and wrong arguments: usage and exit codes 0 and 2, before any store is opened', async () => {
    const help = await dataTool({ DATA_DIR: join(WORK, 'never-opened') }, '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: npm run data -- <command>/);
    for (const args of [
      [],
      ['frobnicate'],
      ['review', 'answer', 'id', 'javascript:alert(1)'],
      ['stats', 'extra'],
      ['export', '--to', 'x'],
    ]) {
      const wrong = await dataTool({ DATA_DIR: join(WORK, 'never-opened') }, ...args);
      assert.equal(wrong.code, 2, `${args.join(' ')}: ${wrong.stderr}`);
      assert.notEqual(wrong.stderr, '');
    }
    await assert.rejects(stat(join(WORK, 'never-opened')), 'no store was opened');
  });

  for (const engine of ['embedded', 'PostgreSQL'] as const) {
    test(`on the ${engine} store: review, approve, answer, decline, done, delete-comment, ban by name, unban and stats`, async () => {
      const env =
        engine === 'embedded' ? { DATA_DIR: await mkdtemp(join(WORK, 'store-')) } : { DATABASE_URL: await freshDatabase('data_tool') };
      // A verified Webmention's notification, not sent yet: it moves with the store.
      const told: ExportRecord = {
        kind: 'notification',
        entry: {
          id: 'mention-1.email',
          channel: 'email',
          notification: {
            kind: 'mention',
            id: 'mention-1',
            createdAt: '2026-11-06T10:00:00.000Z',
            source: 'https://blog.example/trains',
            articleSlug: 'night-trains',
            lang: 'en',
            status: 'waiting',
            mentionKind: 'reply',
            authorName: 'Dana Blogger',
            authorUrl: null,
            body: 'Sleeper trains are back.',
          },
          createdAt: '2026-11-06T10:00:00.000Z',
          attempts: 1,
          dueAt: '2026-11-06T10:05:00.000Z',
        },
      };
      // What the site stored, given to the tool as an export.
      const records: ExportRecord[] = [
        {
          kind: 'comment',
          comment: {
            ...newComment('night-trains', 'Rude words'),
            id: 'comment-rude',
            author: 'Teal Heron',
            authorHash: 'hash-heron',
            createdAt: '2026-11-01T10:00:00.000Z',
            score: 0,
            deletedAt: null,
          },
        },
        {
          kind: 'comment',
          comment: {
            ...newComment('night-trains', 'A calm reply', 'comment-rude'),
            id: 'comment-reply',
            createdAt: '2026-11-01T11:00:00.000Z',
            score: 0,
            deletedAt: null,
          },
        },
        ...['comment-waiting', 'comment-spam'].map((id, index): ExportRecord => ({
          kind: 'comment',
          comment: {
            ...newComment('night-trains', `Waits ${index}`),
            id,
            authorHash: 'hash-new',
            createdAt: `2026-11-01T12:0${index}:00.000Z`,
            score: 0,
            deletedAt: null,
            status: 'pending',
          },
        })),
        {
          kind: 'topicRequest',
          item: {
            id: 'request-1',
            requestTitle: 'Sleeper trains',
            details: null,
            status: 'pending',
            answerUrl: null,
            authorHash: 'h',
            createdAt: '2026-11-02T10:00:00.000Z',
          },
        },
        {
          kind: 'topicRequest',
          item: {
            id: 'request-2',
            requestTitle: 'Buy my pills',
            details: null,
            status: 'pending',
            answerUrl: null,
            authorHash: 'h',
            createdAt: '2026-11-03T10:00:00.000Z',
          },
        },
        {
          kind: 'bugReport',
          item: {
            id: 'report-1',
            description: 'A broken link',
            pagePath: '/fr',
            authorHash: 'h',
            createdAt: '2026-11-04T10:00:00.000Z',
            reviewedAt: null,
          },
        },
        { kind: 'citySubmission', item: { ...PARIS_SUBMISSION, id: 'city-1', createdAt: '2026-11-05T10:00:00.000Z', reviewedAt: null } },
        told,
      ];
      const file = join(WORK, `seed-${engine}.jsonl`);
      await writeFile(file, records.map((record) => JSON.stringify(record)).join('\n'));
      assert.equal((await dataTool(env, 'import', file)).stdout.trim(), 'imported: 9 added, 0 already there');

      const queue = await dataTool(env, 'review');
      assert.equal(queue.code, 0);
      assert.match(
        queue.stdout,
        /Comments waiting for approval \(2\)\n {2}comment-waiting {2}2026-11-01 {2}night-trains {2}Amber otter: Waits 0\n {2}comment-spam /,
      );
      assert.equal((await dataTool(env, 'approve', 'comment-waiting')).stdout.trim(), 'comment comment-waiting on night-trains: approved');
      assert.equal(
        (await dataTool(env, 'approve', 'comment-waiting')).stdout.trim(),
        'comment comment-waiting on night-trains: was approved already',
      );
      assert.equal((await dataTool(env, 'approve', 'no-such-comment')).code, 1);
      assert.equal((await dataTool(env, 'delete-comment', 'comment-spam')).stdout.trim(), 'comment comment-spam on night-trains: deleted');
      assert.equal((await dataTool(env, 'delete-comment', 'comment-spam')).code, 1, 'a rejected comment is gone');
      assert.match(queue.stdout, /Topic requests \(2\)\n {2}request-1 {2}2026-11-02 {2}Sleeper trains\n {2}request-2/);
      assert.match(queue.stdout, /Bug reports \(1\)\n {2}report-1 {2}2026-11-04 {2}\/fr {2}A broken link/);
      assert.match(queue.stdout, /City submissions \(1\)\n {2}city-1 {2}2026-11-05 {2}Paris, FR/);

      assert.equal((await dataTool(env, 'review', 'answer', 'request-1', '/articles/night-trains')).code, 0);
      assert.equal((await dataTool(env, 'review', 'decline', 'request-2')).code, 0);
      assert.equal((await dataTool(env, 'review', 'done', 'report-1')).code, 0);
      assert.equal((await dataTool(env, 'review', 'done', 'city-1')).code, 0);
      const missing = await dataTool(env, 'review', 'done', 'no-such-item');
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /no bug report or city submission no-such-item/);
      assert.match(
        (await dataTool(env, 'review')).stdout,
        /Comments waiting for approval \(0\)[\s\S]*Topic requests \(0\)[\s\S]*Bug reports \(0\)[\s\S]*City submissions \(0\)/,
      );

      assert.equal((await dataTool(env, 'delete-comment', 'comment-rude')).code, 0);
      assert.equal((await dataTool(env, 'delete-comment', 'comment-rude-2')).code, 1);
      // By the name as the Japanese page shows it, then as the English one does.
      const banned = await dataTool(env, 'ban', '青緑のサギ');
      assert.equal(banned.stdout.trim(), 'hash-heron: banned');
      assert.equal((await dataTool(env, 'ban', 'Teal', 'Heron')).stdout.trim(), 'hash-heron: was banned already');
      assert.equal((await dataTool(env, 'ban', 'Pink Yak')).code, 1, 'no comment shows that name');
      // By the id of one of the reader's comments: a deleted one still names its writer.
      assert.equal((await dataTool(env, 'ban', 'comment-rude')).stdout.trim(), 'hash-heron: was banned already');

      const stats = await dataTool(env, 'stats');
      assert.match(stats.stdout, /comments {16}3 \(1 deleted, 0 waiting for approval\)/);
      assert.match(stats.stdout, /topic requests {10}2 \(0 waiting, 0 pending, 1 answered, 1 declined\)/);
      assert.match(stats.stdout, /banned readers {10}1/);

      const exported = await dataTool(env, 'export');
      const lines = exported.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ExportRecord);
      const rude = lines.find((record) => record.kind === 'comment' && record.comment.id === 'comment-rude');
      assert.ok(rude?.kind === 'comment' && rude.comment.body === '' && rude.comment.deletedAt !== null, 'deleted: no text left');
      assert.ok(lines.some((record) => record.kind === 'topicRequest' && record.item.answerUrl === '/articles/night-trains'));
      assert.deepEqual(
        lines.filter((record) => record.kind === 'notification'),
        [told],
      );
      assert.equal((await dataTool(env, 'unban', 'hash-heron')).stdout.trim(), 'hash-heron: unbanned');
    });
  }

  test('the embedded store is refused while another process has it open', async () => {
    const dir = await mkdtemp(join(WORK, 'open-'));
    const store = await openEmbeddedStore(dir);
    try {
      // A second open in the same process is refused too, and its failure leaves the first one's lock in place.
      await assert.rejects(openEmbeddedStore(dir), new RegExp(`open in process ${process.pid}\\b`));
      const refused = await dataTool({ DATA_DIR: dir }, 'stats');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, new RegExp(`The store in ${dir} is open in process ${process.pid}\\b.*stop it first`));
    } finally {
      await store.close();
    }
    assert.equal((await dataTool({ DATA_DIR: dir }, 'stats')).code, 0, 'free again once closed');
  });

  test('review and export show what readers wrote with its control characters escaped, never raw', async () => {
    const env = { DATA_DIR: await mkdtemp(join(WORK, 'controls-')) };
    const title = 'Free \x1b[2J\x1b[31mmoney\x07 \x1b]8;;https://evil.example\x1b\\click here\x1b]8;;\x1b\\';
    const details = 'line one\r\nline two\rOVERWRITTEN\b\b, typed: \\x1b';
    const description = '\u202eevil\u202c and a C1 CSI \u009b31m, a NEL\u0085, an isolate \u2066x\u2069';
    const city = 'Par\x1b[8mis';
    const records: ExportRecord[] = [
      {
        kind: 'topicRequest',
        item: {
          id: 'request-1',
          requestTitle: title,
          details,
          status: 'pending',
          answerUrl: null,
          authorHash: 'h',
          createdAt: '2026-11-02T10:00:00.000Z',
        },
      },
      {
        kind: 'bugReport',
        item: { id: 'report-1', description, pagePath: null, authorHash: 'h', createdAt: '2026-11-04T10:00:00.000Z', reviewedAt: null },
      },
      {
        kind: 'citySubmission',
        item: { ...PARIS_SUBMISSION, city, id: 'city-1', createdAt: '2026-11-05T10:00:00.000Z', reviewedAt: null },
      },
    ];
    const file = join(WORK, 'controls.jsonl');
    await writeFile(file, records.map((record) => JSON.stringify(record)).join('\n'));
    assert.equal((await dataTool(env, 'import', file)).code, 0);

    // Anything a terminal acts on: C0 but the line feed that ends each line, DEL, C1, line separators, bidi controls.
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must not be there
    const raw = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
    const queue = await dataTool(env, 'review');
    assert.equal(queue.code, 0);
    assert.doesNotMatch(queue.stdout, raw);
    const shown = (escaped: string) => {
      assert.ok(queue.stdout.includes(escaped), `shows ${escaped}:\n${queue.stdout}`);
    };
    shown(String.raw`Free \x1b[2J\x1b[31mmoney\x07 \x1b]8;;https://evil.example\x1b\\click here\x1b]8;;\x1b\\`);
    shown(String.raw`line one line two\x0dOVERWRITTEN\x08\x08, typed: \\x1b`);
    shown(String.raw`\u202eevil\u202c and a C1 CSI \x9b31m, a NEL\x85, an isolate \u2066x\u2069`);
    shown(String.raw`Par\x1b[8mis, FR`);

    const exported = await dataTool(env, 'export');
    assert.equal(exported.code, 0);
    assert.doesNotMatch(exported.stdout, raw);
    // Escaped in JSON: read back, the same text.
    const back = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ExportRecord);
    assert.deepEqual(
      back.map((record) =>
        record.kind === 'topicRequest'
          ? [record.item.requestTitle, record.item.details]
          : record.kind === 'bugReport'
            ? [record.item.description]
            : record.kind === 'citySubmission'
              ? [record.item.city]
              : [],
      ),
      [[title, details], [description], [city]],
    );
  });

  test('a bad line stops an import, naming it', async () => {
    const file = join(WORK, 'bad.jsonl');
    await writeFile(file, '{"kind":"ban","readerHash":"h","since":"2026-11-01T00:00:00.000Z"}\n{"kind":"comment"}\n');
    const run = await dataTool({ DATA_DIR: await mkdtemp(join(WORK, 'bad-')) }, 'import', file);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /line 2 is not an export record/);
  });

  test('moving 100,000 comments from the embedded store to PostgreSQL is export then import, and loses nothing', async () => {
    const dir = await mkdtemp(join(WORK, 'big-'));
    const store = await openEmbeddedStore(dir);
    const records: ExportRecord[] = [];
    for (let index = 0; index < 100_000; index += 1) {
      const articleSlug = `article-${index % 20}`;
      // One round in ten replies to the round before: the comment written twenty before, on the same article.
      const parentId = Math.floor(index / 20) % 10 === 9 ? `comment-${index - 20}` : null;
      records.push({
        kind: 'comment',
        comment: {
          ...newComment(articleSlug, `Comment ${index}: ${'words '.repeat(index % 30)}«ünïcödé» ✓`, parentId),
          id: `comment-${index}`,
          createdAt: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
          score: 0,
          deletedAt: null,
        },
      });
    }
    for (let index = 0; index < 30_000; index += 1)
      records.push({
        kind: 'vote',
        articleSlug: `article-${index % 20}`,
        commentId: index % 3 === 0 ? null : `comment-${index}`,
        voter: `voter-${index}`,
        vote: index % 4 === 0 ? -1 : 1,
      });
    await store.importRecords(replay(records));
    await store.keptSalt(() => 'round-trip-salt-'.repeat(3));
    await store.close();

    const file = join(WORK, 'big.jsonl');
    // A file that was there, readable by everyone: the export, salt and all, is the owner's alone.
    await writeFile(file, 'an older export', { mode: 0o644 });
    const exported = await dataTool({ DATA_DIR: dir }, 'export', '--out', file);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stderr.trim(), 'exported 130001 records');
    assert.equal((await stat(file)).mode & 0o777, 0o600);

    const databaseUrl = await freshDatabase('round_trip');
    const first = await dataTool({ DATABASE_URL: databaseUrl }, 'import', file);
    assert.equal(first.stdout.trim(), 'imported: 130001 added, 0 already there', first.stderr);
    const again = await dataTool({ DATABASE_URL: databaseUrl }, 'import', file);
    assert.equal(again.stdout.trim(), 'imported: 0 added, 130001 already there');

    const back = await dataTool({ DATABASE_URL: databaseUrl }, 'export');
    // Every id, text, score, vote and the salt, compared line for line (in order: votes leave each engine in its own).
    const moved = back.stdout.trim().split('\n').sort();
    const original = (await readFile(file, 'utf8')).trim().split('\n').sort();
    assert.equal(moved.length, original.length);
    const differing = moved.findIndex((line, index) => line !== original[index]);
    assert.equal(differing, -1, `first difference: ${moved[differing] ?? ''} against ${original[differing] ?? ''}`);
    assert.equal((await dataTool({ DATABASE_URL: databaseUrl }, 'stats')).stdout, (await dataTool({ DATA_DIR: dir }, 'stats')).stdout);
  });
});
