import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openEmbeddedStore } from '../../src/server/store/embedded/engine.ts';
import { newMention } from '../../src/server/store/records.ts';
import type { Mention, OutboxEntry, StoredComment } from '../../src/server/store/types.ts';
import { newComment, PARIS_SUBMISSION } from '../support/store-contract.ts';
import { until } from '../support/until.ts';

/** How often a test looks again: often, as compactions here come every few milliseconds. */
const POLL = { everyMs: 5 } as const;

const WRITER = fileURLToPath(new URL('../support/store-writer.ts', import.meta.url));

// Every test's directory lives under one root, removed once every store is closed.
const ROOT = await mkdtemp(join(tmpdir(), 'store-embedded-'));
after(() => rm(ROOT, { recursive: true, force: true }));

/** A fresh directory for one test. */
function scratch(): Promise<string> {
  return mkdtemp(join(ROOT, 'test-'));
}

/** A journal line as the store writes it, for crafting damaged journals. */
function commentLine(seq: number, articleSlug: string, id: string): string {
  const comment: StoredComment = { ...newComment(articleSlug), id, createdAt: '2026-01-02T03:04:05.000Z', score: 0, deletedAt: null };
  return `${JSON.stringify({ seq, op: 'comment', comment })}\n`;
}

async function journalFiles(dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'journal'))).sort();
}

/** Asserts that `open` rejects naming `file` and matching `detail`, and that `file` is left byte for byte. */
async function assertRefusedAndUntouched(dir: string, file: string, detail: RegExp): Promise<void> {
  const before = await readFile(file);
  // The lock is taken before anything is read, and its file is never removed (lock.ts): the one file a refused open adds.
  const listing = async () => (await readdir(join(file, '..'))).filter((name) => name !== 'store.lock');
  const listed = await listing();
  await assert.rejects(openEmbeddedStore(dir), (error: Error) => {
    assert.ok(error.message.includes(file), `the message names ${file}: ${error.message}`);
    assert.match(error.message, detail);
    return true;
  });
  assert.deepEqual(await readFile(file), before);
  assert.deepEqual(await listing(), listed);
}

describe('the embedded store', () => {
  test('starts empty in a directory that does not exist yet, and creates it', async () => {
    const dir = join(await scratch(), 'not', 'yet');
    const store = await openEmbeddedStore(dir);
    assert.deepEqual(await store.listComments('first-article'), []);
    assert.equal(await store.getComment('first-article', 'nope'), null);
    assert.deepEqual(await store.listTopicRequests(), []);
    assert.deepEqual(await store.votesOf('first-article', 'someone'), { article: 0, comments: {} });
    await store.close();
    assert.ok((await stat(join(dir, 'articles'))).isDirectory());
  });

  test('its folders are the owner’s alone (0700) and so is every file it writes (0600), in a folder an earlier version left open too', async () => {
    const dir = await scratch();
    // As an earlier version left it: folders and files readable by everyone, and its lock file naming a process.
    for (const folder of [dir, join(dir, 'articles'), join(dir, 'journal')]) await mkdir(folder, { recursive: true, mode: 0o755 });
    await writeFile(join(dir, 'lock'), `${process.pid}\n`, { mode: 0o644 });
    const store = await openEmbeddedStore(dir, { compactAfterBytes: 1, compactEveryMs: 5 });
    const comment = await store.insertComment(newComment('private'));
    await store.applyVote({ articleSlug: 'private', commentId: comment.id }, 'ann', () => 1);
    await store.insertTopicRequest({ requestTitle: 'Plain text', details: null, authorHash: 'h' });
    await store.insertBugReport({ description: 'Broken link', pagePath: '/about', authorHash: 'h' });
    await store.insertCitySubmission(PARIS_SUBMISSION);
    await store.setBan('hash-heron', true);
    await store.keptSalt(() => 'a-salt-of-at-least-thirty-two-characters');
    await until(
      async () => (await readFile(join(dir, 'articles', 'private.json'), 'utf8').catch(() => '')).includes(comment.id),
      'a compaction',
    );
    const modes = async () => {
      const found: Record<string, string> = {};
      for (const name of ['', ...(await readdir(dir, { recursive: true }))]) {
        // A compaction may still be replacing a snapshot: its temporary file can be gone by now.
        const mode = (await stat(join(dir, name)).catch(() => null))?.mode;
        if (mode !== undefined) found[name] = (mode & 0o777).toString(8);
      }
      return found;
    };
    const open = await modes();
    await store.close();
    const closed = await modes();
    assert.ok(
      Object.keys(open).some((name) => name.startsWith('journal/')),
      `a journal generation while open: ${JSON.stringify(open)}`,
    );
    for (const name of [
      'articles/private.json',
      'topic-requests.json',
      'bug-reports.json',
      'city-submissions.json',
      'bans.json',
      'ip-hash-salt',
    ])
      assert.ok(closed[name], `${name} is written: ${JSON.stringify(closed)}`);
    assert.equal(closed['lock'], undefined, 'the earlier version’s lock file is gone');
    for (const [name, mode] of Object.entries({ ...open, ...closed }))
      assert.equal(mode, ['', 'articles', 'journal'].includes(name) ? '700' : '600', `${name || 'the folder'}: ${mode}`);
  });

  test('refuses a slug that could name another file', async (t) => {
    const store = await openEmbeddedStore(await scratch());
    t.after(() => store.close());
    await assert.rejects(store.insertComment(newComment('../escape')));
    await assert.rejects(store.applyVote({ articleSlug: '../escape', commentId: null }, 'v', () => 1));
  });

  test('after close and reopen everything is there, in snapshot files, with no journal left', async (t) => {
    const dir = await scratch();
    const store = await openEmbeddedStore(dir);
    const comment = await store.insertComment(newComment('kept'));
    await store.applyVote({ articleSlug: 'kept', commentId: comment.id }, 'ann', () => 1);
    await store.applyVote({ articleSlug: 'kept', commentId: null }, 'bob', () => -1);
    const request = await store.insertTopicRequest({ requestTitle: 'Plain text', details: null, authorHash: 'h' });
    await store.insertBugReport({ description: 'Broken link', pagePath: '/about', authorHash: 'h' });
    await store.insertCitySubmission(PARIS_SUBMISSION);
    await store.close();

    assert.deepEqual(await journalFiles(dir), []);
    const snapshot = JSON.parse(await readFile(join(dir, 'articles', 'kept.json'), 'utf8')) as { comments: StoredComment[]; score: number };
    assert.equal(snapshot.comments[0]?.id, comment.id);
    assert.equal(snapshot.score, -1);
    for (const name of ['bug-reports.json', 'city-submissions.json']) {
      const document = JSON.parse(await readFile(join(dir, name), 'utf8')) as { items: unknown[] };
      assert.equal(document.items.length, 1, name);
    }

    const reopened = await openEmbeddedStore(dir);
    t.after(() => reopened.close());
    assert.deepEqual(await reopened.listComments('kept'), [{ ...comment, score: 1 }]);
    assert.deepEqual(await reopened.votesOf('kept', 'ann'), { article: 0, comments: { [comment.id]: 1 } });
    assert.deepEqual(await reopened.applyVote({ articleSlug: 'kept', commentId: null }, 'carl', (current) => current), {
      score: -1,
      vote: 0,
    });
    assert.deepEqual(await reopened.listTopicRequests(), [request]);
  });

  test('compaction moves the journal into snapshot files while the store is open', async (t) => {
    const dir = await scratch();
    const store = await openEmbeddedStore(dir, { compactAfterBytes: 1, compactEveryMs: 5 });
    t.after(() => store.close());
    const ids = [];
    for (let index = 0; index < 30; index += 1) ids.push((await store.insertComment(newComment('busy'))).id);
    const snapshotIds = async () => {
      const text = await readFile(join(dir, 'articles', 'busy.json'), 'utf8').catch(() => '{"comments":[]}');
      return (JSON.parse(text) as { comments: StoredComment[] }).comments.map((comment) => comment.id);
    };
    // The current generation may still repeat records the snapshot holds; the older ones are gone.
    const oneGeneration = async () => (await journalFiles(dir)).length === 1;
    await until(async () => (await snapshotIds()).length === ids.length && (await oneGeneration()), 'a compaction', POLL);
    assert.deepEqual(await snapshotIds(), ids);
  });

  test('an idle thread is let go once its file holds it, and read from that file when asked for again', async (t) => {
    const dir = await scratch();
    const store = await openEmbeddedStore(dir, { compactEveryMs: 20, keptComments: 0 });
    t.after(() => store.close());
    const first = await store.insertComment(newComment('idle', 'First'));
    const reply = await store.insertComment(newComment('idle', 'Reply', first.id));
    await store.applyVote({ articleSlug: 'idle', commentId: first.id }, 'voter-1', () => 1);
    await store.applyVote({ articleSlug: 'idle', commentId: null }, 'voter-2', () => -1);
    const file = join(dir, 'articles', 'idle.json');
    // The snapshot holds every write (the last vote's among them) and the older journals are gone: no compaction is
    // left to write the file again over the change below.
    const snapshotWhole = async () =>
      (await readFile(file, 'utf8').catch(() => '')).includes('voter-2') && (await journalFiles(dir)).length === 1;
    await until(snapshotWhole, 'the snapshot', POLL);
    // Changed behind the store's back: only a thread read again from its file shows it.
    const edited = (await readFile(file, 'utf8')).replace('"Reply"', '"Reply, read from the file"');
    await writeFile(file, edited);
    // Asked for less often than the store looks for idle threads (every 20 ms), so that it finds this one idle.
    const readAgain = async () => (await store.getComment('idle', reply.id))?.body === 'Reply, read from the file';
    await until(readAgain, 'the thread read again', { everyMs: 200 });
    // Read again, the thread is whole: votes, scores, and a vote that decides against the ones before it.
    assert.equal((await store.getComment('idle', first.id))?.score, 1);
    assert.deepEqual(await store.votesOf('idle', 'voter-1'), { article: 0, comments: { [first.id]: 1 } });
    assert.deepEqual(await store.applyVote({ articleSlug: 'idle', commentId: first.id }, 'voter-1', (current) => (current === 1 ? 0 : 1)), {
      score: 0,
      vote: 0,
    });
    assert.equal(await store.articleScore('idle'), -1);
  });

  test('idle threads stay in memory while they hold no more than keptComments; past it, the least recently used goes first', async (t) => {
    const dir = await scratch();
    const store = await openEmbeddedStore(dir, { compactEveryMs: 20, keptComments: 5 });
    t.after(() => store.close());
    const kept = await store.insertComment(newComment('kept', 'As written'));
    let last = kept;
    for (let index = 0; index < 2; index += 1) last = await store.insertComment(newComment('kept'));
    const file = join(dir, 'articles', 'kept.json');
    // The snapshot holding all three: no later compaction writes this file again.
    await until(async () => (await readFile(file, 'utf8').catch(() => '')).includes(last.id), 'the snapshot', POLL);
    // Changed behind the store's back: only a thread read again from its file shows it.
    await writeFile(file, (await readFile(file, 'utf8')).replace('"As written"', '"Read from the file"'));
    // Ten idle periods with 3 comments in memory, within the 5 kept: the thread stays.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await store.getComment('kept', kept.id))?.body, 'As written');

    // 4 more on another thread make 7: once that one's file holds them, the thread asked for least recently is let go.
    let newest = kept;
    for (let index = 0; index < 4; index += 1) newest = await store.insertComment(newComment('newer'));
    const newerFile = join(dir, 'articles', 'newer.json');
    await until(async () => (await readFile(newerFile, 'utf8').catch(() => '')).includes(newest.id), 'the other snapshot', POLL);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await store.getComment('kept', kept.id))?.body, 'Read from the file');
    assert.equal((await store.getComment('newer', newest.id))?.id, newest.id);
  });

  test('a thread in use stays in memory, and concurrent writes to a thread being read from its file all count', async (t) => {
    const dir = await scratch();
    const seeded = await openEmbeddedStore(dir);
    const comment = await seeded.insertComment(newComment('busy-thread', 'Vote on me'));
    await seeded.close();
    const store = await openEmbeddedStore(dir, { compactEveryMs: 20, keptComments: 0 });
    t.after(() => store.close());
    // The thread is on disk only: 300 votes at once wait for one read of its file.
    const votes = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        store.applyVote({ articleSlug: 'busy-thread', commentId: index % 2 === 0 ? comment.id : null }, `voter-${index}`, () => 1),
      ),
    );
    assert.equal(Math.max(...votes.map((vote) => vote?.score ?? 0)), 150);
    assert.equal((await store.getComment('busy-thread', comment.id))?.score, 150);
    assert.equal(await store.articleScore('busy-thread'), 150);
    await store.close();
    const reopened = await openEmbeddedStore(dir);
    t.after(() => reopened.close());
    assert.equal((await reopened.getComment('busy-thread', comment.id))?.score, 150);
    assert.equal(await reopened.articleScore('busy-thread'), 150);
  });

  test('a long thread is not rewritten at every journal threshold: the journal grows as large as the snapshots written', async (t) => {
    const dir = await scratch();
    // A floor of one byte: were it the threshold, every write would start a compaction of the whole thread.
    const store = await openEmbeddedStore(dir, { compactAfterBytes: 1, compactEveryMs: 3_600_000 });
    const written = [];
    for (let index = 0; index < 600; index += 1) written.push((await store.insertComment(newComment('long', `Comment ${index}`))).id);
    // Each compaction starts a journal generation: the thread is rewritten each time its journal has grown as large as it.
    const [generation] = await journalFiles(dir);
    assert.ok(Number(generation?.slice(0, 10)) < 30, `${generation ?? 'none'}: about one compaction a doubling of the thread`);
    await store.close();
    const reopened = await openEmbeddedStore(dir);
    t.after(() => reopened.close());
    assert.deepEqual(
      (await reopened.listComments('long')).map((comment) => comment.id),
      written,
    );
  });

  test('200 comments written at once on 20 articles, across compactions, all persist', async (t) => {
    const dir = await scratch();
    const store = await openEmbeddedStore(dir, { compactAfterBytes: 4096 });
    const written = await Promise.all(
      Array.from({ length: 200 }, (_, index) => store.insertComment(newComment(`article-${index % 20}`, `Comment ${index}`))),
    );
    await store.close();
    const reopened = await openEmbeddedStore(dir);
    t.after(() => reopened.close());
    for (let article = 0; article < 20; article += 1) {
      const slug = `article-${article}`;
      const ids = (await reopened.listComments(slug)).map((comment) => comment.id);
      const expected = written.filter((comment) => comment.articleSlug === slug).map((comment) => comment.id);
      assert.deepEqual(ids, expected, slug);
    }
  });

  test('every acknowledged write survives the process being killed mid-storm', async (t) => {
    const dir = await scratch();
    // A small journal threshold, so that the kill is likely to land during a compaction too; threads long enough by
    // then that each snapshot is written in several pieces while writes go on.
    const child = spawn(process.execPath, [WRITER, dir, '16384'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const closed = once(child, 'close');
    await until(() => output.split('\n').length > 6000 || child.exitCode !== null, 'acknowledged writes');
    child.kill('SIGKILL');
    const [, signal] = (await closed) as [number | null, string | null];
    assert.equal(signal, 'SIGKILL', `the writer was still running: ${errors}`);

    // Every file left behind is readable as it is (leftover temporary files, `.name.tmp`, aside).
    const journalLines = [];
    for (const name of await journalFiles(dir)) {
      const lines = (await readFile(join(dir, 'journal', name), 'utf8')).split('\n');
      lines.pop(); // empty, or a write the kill cut short
      journalLines.push(...lines);
    }
    for (const line of journalLines) JSON.parse(line);
    const snapshots = [
      ...(await readdir(join(dir, 'articles'))).filter((name) => !name.startsWith('.')).map((name) => join(dir, 'articles', name)),
      ...(await readdir(dir)).filter((name) => name.endsWith('.json')).map((name) => join(dir, name)),
    ];
    for (const file of snapshots) JSON.parse(await readFile(file, 'utf8'));

    const acknowledged = output.split('\n').slice(0, -1);
    const store = await openEmbeddedStore(dir);
    t.after(() => store.close());
    const topics = new Set((await store.listTopicRequests()).map((request) => request.id));
    for (const line of acknowledged) {
      const [kind, first = '', second = ''] = line.split(' ');
      if (kind === 'comment') assert.ok(await store.getComment(first, second), line);
      else if (kind === 'vote') assert.equal((await store.votesOf(first, second)).article, 1, line);
      else assert.ok(topics.has(first), line);
    }
  });

  test('moderation replayed from the journal: approved and removed comments, and who was ever published, as before the crash', async (t) => {
    const dir = await scratch();
    await mkdir(join(dir, 'journal'), { recursive: true });
    const pending = (seq: number, id: string, authorHash: string) => {
      const comment: StoredComment = {
        ...newComment('held'),
        id,
        authorHash,
        createdAt: '2026-01-02T03:04:05.000Z',
        score: 0,
        deletedAt: null,
        status: 'pending',
      };
      return `${JSON.stringify({ seq, op: 'comment', comment })}\n`;
    };
    await writeFile(
      join(dir, 'journal', '0000000001.jsonl'),
      commentLine(1, 'held', 'shown') +
        pending(2, 'approved', 'hash-approved') +
        pending(3, 'removed', 'hash-removed') +
        pending(4, 'waiting', 'hash-waiting') +
        `${JSON.stringify({ seq: 5, op: 'approveComment', articleSlug: 'held', commentId: 'approved' })}\n` +
        `${JSON.stringify({ seq: 6, op: 'removeComment', articleSlug: 'held', commentId: 'removed' })}\n`,
    );
    const store = await openEmbeddedStore(dir);
    t.after(() => store.close());
    assert.deepEqual(
      (await store.listComments('held')).map((comment) => comment.id),
      ['shown', 'approved'],
    );
    assert.deepEqual(
      (await store.reviewQueue()).comments.map((comment) => comment.id),
      ['waiting'],
    );
    assert.equal(await store.findComment('removed'), null);
    assert.equal(await store.everPublished('hash-approved'), true);
    assert.equal(await store.everPublished('hash-removed'), false);
    assert.equal(await store.everPublished('hash-waiting'), false);
  });

  test('outbox entries replayed from the journal: named in their record’s line, or whole, each made into the notification it tells', async (t) => {
    const dir = await scratch();
    await mkdir(join(dir, 'journal'), { recursive: true });
    const comment = (id: string): StoredComment => ({
      ...newComment('told', `Comment ${id}`),
      id,
      createdAt: '2026-01-02T03:04:05.000Z',
      score: 0,
      deletedAt: null,
    });
    const { authorHash: _hash, score: _score, deletedAt: _deleted, ...told } = comment('whole');
    const wholeEntry = {
      id: 'entry-whole',
      channel: 'email',
      notification: { ...told, kind: 'comment' },
      createdAt: told.createdAt,
      attempts: 0,
      dueAt: told.createdAt,
    };
    await writeFile(
      join(dir, 'journal', '0000000001.jsonl'),
      `${JSON.stringify({
        seq: 1,
        op: 'comment',
        comment: comment('named'),
        outbox: [
          { id: 'entry-named', channel: 'email' },
          { id: 'entry-hook', channel: 'webhook' },
        ],
      })}\n` + `${JSON.stringify({ seq: 2, op: 'comment', comment: comment('whole'), outbox: [wholeEntry] })}\n`,
    );
    const store = await openEmbeddedStore(dir);
    t.after(() => store.close());
    const emails = await store.claimNotifications('email', 10, 60_000);
    assert.deepEqual(
      emails.map((entry) => [entry.id, entry.notification.kind === 'comment' ? entry.notification.body : null]),
      [
        ['entry-named', 'Comment named'],
        ['entry-whole', 'Comment whole'],
      ],
    );
    assert.ok(
      emails.every((entry) => !('authorHash' in entry.notification) && entry.attempts === 0 && entry.dueAt === '2026-01-02T03:04:05.000Z'),
    );
    assert.deepEqual(await store.outboxDepth(), { email: 2, webhook: 1 });
  });

  test('a verified Webmention’s entries, whole in its journal line, are replayed after a crash', async (t) => {
    const dir = await scratch();
    await mkdir(join(dir, 'journal'), { recursive: true });
    const received = newMention(
      { source: 'https://blog.example/1', target: 'https://site.example/articles/told', articleSlug: 'told', lang: 'en' },
      'received',
    );
    const verifiedAt = '2026-01-02T03:04:05.000Z';
    const waiting: Mention = { ...received, status: 'waiting', kind: 'mention', settledAt: verifiedAt, dueAt: null };
    const entry = {
      id: 'told-mention.email',
      channel: 'email',
      notification: {
        kind: 'mention',
        id: 'told-mention',
        createdAt: verifiedAt,
        source: waiting.source,
        articleSlug: 'told',
        lang: 'en',
        status: 'waiting',
        mentionKind: 'mention',
        authorName: null,
        authorUrl: null,
        body: null,
      },
      createdAt: verifiedAt,
      attempts: 0,
      dueAt: verifiedAt,
    } satisfies OutboxEntry;
    await writeFile(
      join(dir, 'journal', '0000000001.jsonl'),
      [
        { seq: 1, op: 'mention', item: received },
        { seq: 2, op: 'mention', item: waiting, outbox: [entry] },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const store = await openEmbeddedStore(dir);
    t.after(() => store.close());
    assert.deepEqual(await store.findMention(waiting), waiting);
    assert.deepEqual(await store.claimNotifications('email', 10, 60_000), [entry]);
  });

  test('a new record’s entries are named by its id in its journal line, and replayed, tried, sent, imported and compacted as whole ones', async (t) => {
    const dir = await scratch();
    const writing = await openEmbeddedStore(dir, { notificationChannels: ['email', 'webhook'] });
    const named = await writing.insertComment(newComment('named', 'Named by its id'));
    const lines = (await readFile(join(dir, 'journal', (await journalFiles(dir)).at(-1) ?? ''), 'utf8')).trim().split('\n');
    await writing.close();
    assert.deepEqual((JSON.parse(lines.at(-1) ?? '{}') as { outbox?: unknown }).outbox, [
      { id: `${named.id}.email`, channel: 'email' },
      { id: `${named.id}.webhook`, channel: 'webhook' },
    ]);

    // After a crash: only the journal, with a comment's two entries, one tried once and the other sent.
    const crashed = await scratch();
    await mkdir(join(crashed, 'journal'), { recursive: true });
    const comment: StoredComment = {
      ...newComment('replayed', 'Told after a crash'),
      id: 'c1',
      createdAt: '2026-01-02T03:04:05.000Z',
      score: 0,
      deletedAt: null,
    };
    await writeFile(
      join(crashed, 'journal', '0000000001.jsonl'),
      [
        {
          seq: 1,
          op: 'comment',
          comment,
          outbox: [
            { id: 'c1.email', channel: 'email' },
            { id: 'c1.webhook', channel: 'webhook' },
          ],
        },
        { seq: 2, op: 'outboxFailed', ids: ['c1.email'], dueAt: '2026-01-03T00:00:00.000Z' },
        { seq: 3, op: 'outboxSent', ids: ['c1.webhook'] },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const expected: OutboxEntry = {
      id: 'c1.email',
      channel: 'email',
      notification: {
        kind: 'comment',
        id: 'c1',
        articleSlug: 'replayed',
        parentId: null,
        depth: 1,
        author: comment.author,
        body: 'Told after a crash',
        createdAt: comment.createdAt,
        status: 'published',
      },
      createdAt: comment.createdAt,
      attempts: 1,
      dueAt: '2026-01-03T00:00:00.000Z',
    };
    const replayed = await openEmbeddedStore(crashed);
    assert.deepEqual(await replayed.outboxDepth(), { email: 1, webhook: 0 });
    assert.deepEqual(await replayed.claimNotifications('email', 10, 0), [expected]);
    // An entry imported meanwhile is kept whole, beside the held one.
    const wholeEntry: OutboxEntry = { ...expected, id: 'imported-entry', channel: 'webhook', attempts: 0 };
    assert.deepEqual(await replayed.importRecords([{ kind: 'notification', entry: wholeEntry }]), { added: 1, skipped: 0 });
    await replayed.close();

    // Reopened from outbox.json, written when it closed.
    const reopened = await openEmbeddedStore(crashed);
    t.after(() => reopened.close());
    assert.deepEqual(await reopened.claimNotifications('email', 10, 0), [expected]);
    assert.deepEqual(await reopened.claimNotifications('webhook', 10, 0), [wholeEntry]);
    await reopened.notificationsSent([expected, wholeEntry]);
    assert.deepEqual(await reopened.outboxDepth(), { email: 0, webhook: 0 });
  });

  test('an incomplete last journal line (a write cut short) is ignored', async (t) => {
    const dir = await scratch();
    await mkdir(join(dir, 'journal'), { recursive: true });
    const torn = commentLine(3, 'torn', 'c3').slice(0, 40);
    await writeFile(join(dir, 'journal', '0000000001.jsonl'), commentLine(1, 'torn', 'c1') + commentLine(2, 'torn', 'c2') + torn);
    const store = await openEmbeddedStore(dir);
    assert.deepEqual(
      (await store.listComments('torn')).map((comment) => comment.id),
      ['c1', 'c2'],
    );
    const added = await store.insertComment(newComment('torn'));
    await store.close();
    const reopened = await openEmbeddedStore(dir);
    t.after(() => reopened.close());
    assert.deepEqual(
      (await reopened.listComments('torn')).map((comment) => comment.id),
      ['c1', 'c2', added.id],
    );
  });

  test('a snapshot half replaced when the process died (its temporary file) is removed at the next open', async (t) => {
    const dir = await scratch();
    const first = await openEmbeddedStore(dir);
    const kept = await first.insertComment(newComment('half'));
    await first.close();
    await writeFile(join(dir, 'articles', '.half.json.tmp'), '{"format":1,"slug":"ha');
    await writeFile(join(dir, '.topic-requests.json.tmp'), '');
    const store = await openEmbeddedStore(dir);
    t.after(() => store.close());
    assert.deepEqual(
      (await store.listComments('half')).map((comment) => comment.id),
      [kept.id],
    );
    const files = await readdir(dir, { recursive: true });
    assert.deepEqual(
      files.filter((file) => file.endsWith('.tmp')),
      [],
    );
  });

  describe('a damaged file stops start-up, named, and is left as it is', () => {
    test('a snapshot that is not JSON', async () => {
      const dir = await scratch();
      await mkdir(join(dir, 'articles'), { recursive: true });
      const file = join(dir, 'articles', 'broken.json');
      await writeFile(file, '{"format":1,"slug":"broken","comm');
      await assertRefusedAndUntouched(dir, file, /not JSON/);
    });

    test('a snapshot of the wrong shape', async () => {
      const dir = await scratch();
      await mkdir(join(dir, 'articles'), { recursive: true });
      const file = join(dir, 'articles', 'odd.json');
      const comment = { ...newComment('odd'), id: 'c1', createdAt: '2026-01-02T03:04:05.000Z', score: 'high' };
      await writeFile(file, JSON.stringify({ format: 1, slug: 'odd', journalSeq: 0, score: 0, comments: [comment], votes: [] }));
      await assertRefusedAndUntouched(dir, file, /comments\.0\.score/);
    });

    test('a collection file of the wrong shape', async () => {
      const dir = await scratch();
      const file = join(dir, 'topic-requests.json');
      await writeFile(file, '[]');
      await assertRefusedAndUntouched(dir, file, /corrupt/);
    });

    test('a damaged line in the middle of the journal', async () => {
      const dir = await scratch();
      await mkdir(join(dir, 'journal'), { recursive: true });
      const file = join(dir, 'journal', '0000000001.jsonl');
      await writeFile(file, commentLine(1, 'a', 'c1'));
      await appendFile(file, '{"seq":2,"op":"comm\n');
      await appendFile(file, commentLine(3, 'a', 'c3'));
      await assertRefusedAndUntouched(dir, file, /line 2 is not JSON/);
    });

    test('a journal record that does not fit the state (a vote on a missing comment)', async () => {
      const dir = await scratch();
      await mkdir(join(dir, 'journal'), { recursive: true });
      const file = join(dir, 'journal', '0000000001.jsonl');
      const vote = { seq: 2, op: 'vote', articleSlug: 'a', commentId: 'ghost', voter: 'v', vote: 1 };
      await writeFile(file, `${commentLine(1, 'a', 'c1')}${JSON.stringify(vote)}\n`);
      await assertRefusedAndUntouched(dir, file, /line 2: .*ghost/);
    });
  });
});
