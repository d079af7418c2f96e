// The embedded store's acknowledged write rate and latency under concurrent
// writers, against lowdb's own plain writes of the same comments in the same
// run. Every store write is fsync'd before it resolves.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { openEmbeddedStore } from '../src/server/store/embedded/engine.ts';
import type { ArticleDocument } from '../src/server/store/embedded/documents.ts';
import type { StoredComment, VoteValue } from '../src/server/store/types.ts';
import { handBack, measured } from './report.ts';

const ARTICLES = 100;
const COMMENTS_PER_ARTICLE = 1_000;
const WRITERS = 50;
const MAX_WRITES = 250_000;
const SECONDS = 5;
const BASELINE_SECONDS = 3;
/**
 * The goals, each against a baseline of the same run: each kind of write at
 * least this many times lowdb's plain writes of the same comments (which
 * neither fsync nor journal), and opening at most this many times lowdb's
 * reading of the same comments.
 */
export const TIMES_LOWDB_WRITES = 8;
/** The baseline row of the embedded store's writes. */
const LOWDB_RUN = 'lowdb JSONFile per article (no fsync)';
const TIMES_LOWDB_OPEN = 8;

interface Measure {
  writes: number;
  writesPerSecond: number;
  p50: number;
  p99: number;
}

const slugs = Array.from({ length: ARTICLES }, (_, index) => `article-${index}`);

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

function newComment(articleSlug: string, index: number) {
  return {
    articleSlug,
    parentId: null,
    depth: 1,
    author: 'Amber otter',
    authorHash: 'f'.repeat(64),
    body: `Comment ${index}: a reader's thoughts on the article, long enough to weigh what a real comment weighs on disk.`,
    status: 'published' as const,
  };
}

function seededComments(articleSlug: string): StoredComment[] {
  return Array.from({ length: COMMENTS_PER_ARTICLE }, (_, index) => ({
    ...newComment(articleSlug, index),
    id: `${articleSlug}-${index}`,
    createdAt: new Date().toISOString(),
    score: 0,
    deletedAt: null,
  }));
}

/** Runs `write` from WRITERS concurrent loops until `maxWrites` or `seconds` are used up; times each write. */
async function measure(write: (index: number) => Promise<unknown>, seconds: number, maxWrites = MAX_WRITES): Promise<Measure> {
  const latencies: number[] = [];
  let started = 0;
  const began = performance.now();
  const deadline = began + seconds * 1000;
  const writer = async () => {
    while (started < maxWrites && performance.now() < deadline) {
      const index = started++;
      const t0 = performance.now();
      await write(index);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  const elapsed = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { writes: latencies.length, writesPerSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

/** Writes the store's own files for 1,000 comments on each of `articleSlugs`, as if readers had written them. */
export async function seedEngineFiles(dataDir: string, articleSlugs: readonly string[] = slugs): Promise<void> {
  await mkdir(join(dataDir, 'articles'), { recursive: true });
  for (const slug of articleSlugs) {
    const document: ArticleDocument = {
      format: 1,
      slug,
      journalSeq: 0,
      score: 0,
      comments: seededComments(slug),
      votes: [],
      reactions: [],
    };
    // Flushed: left to the kernel, tens of megabytes would reach the disk half a minute later, in a measured run.
    await writeFile(join(dataDir, 'articles', `${slug}.json`), JSON.stringify(document), { flush: true });
  }
}

async function benchEngine(dataDir: string): Promise<{ open: number; comments: Measure; votes: Measure; close: number }> {
  await seedEngineFiles(dataDir);
  let t0 = performance.now();
  const store = await openEmbeddedStore(dataDir);
  const open = performance.now() - t0;
  const comments = await measure((index) => store.insertComment(newComment(pick(slugs), index)), SECONDS);
  const votes = await measure(async (index) => {
    const articleSlug = pick(slugs);
    const onComment = index % 2 === 0;
    const commentId = onComment ? `${articleSlug}-${Math.floor(Math.random() * COMMENTS_PER_ARTICLE)}` : null;
    const toggle = (current: VoteValue): VoteValue => (current === 1 ? 0 : 1);
    await store.applyVote({ articleSlug, commentId }, `voter-${Math.floor(Math.random() * 5_000)}`, toggle);
  }, SECONDS);
  t0 = performance.now();
  await store.close();
  return { open, comments, votes, close: performance.now() - t0 };
}

/**
 * lowdb as its documentation writes it: one JSONFile per article, `push` then
 * `write`, one write at a time per file, over the same 1,000 comments an
 * article the store holds; and how long reading those files takes it.
 */
export async function lowdbPlainWrites(dataDir: string, seconds = BASELINE_SECONDS): Promise<Measure & { openMs: number }> {
  for (const slug of slugs) {
    const db = new Low(new JSONFile<{ comments: StoredComment[] }>(join(dataDir, `${slug}.json`)), { comments: seededComments(slug) });
    await db.write();
  }
  const files = new Map<string, { db: Low<{ comments: StoredComment[] }>; queue: Promise<unknown> }>();
  const t0 = performance.now();
  for (const slug of slugs) {
    const db = new Low(new JSONFile<{ comments: StoredComment[] }>(join(dataDir, `${slug}.json`)), { comments: [] });
    await db.read();
    files.set(slug, { db, queue: Promise.resolve() });
  }
  const openMs = performance.now() - t0;
  const writes = await measure((index) => {
    const slug = pick(slugs);
    const file = files.get(slug);
    if (!file) throw new Error(`no file for ${slug}`);
    const comment = { ...newComment(slug, index), id: `new-${index}`, createdAt: new Date().toISOString(), score: 0, deletedAt: null };
    const written = file.queue.then(() => {
      file.db.data.comments.push(comment);
      return file.db.write();
    });
    file.queue = written;
    return written;
  }, seconds);
  return { ...writes, openMs };
}

function row(cells: (string | number)[]): string {
  return cells.map((cell, index) => (index === 0 ? String(cell).padEnd(44) : String(cell).padStart(10))).join(' ');
}

function describe(name: string, result: Measure): string {
  return row([name, result.writes, Math.round(result.writesPerSecond), result.p50.toFixed(2), result.p99.toFixed(2)]);
}

/** Prints the embedded store's write rate, latency and opening next to lowdb's, and whether the goals are met. */
export async function benchStore(): Promise<number> {
  let missed = 0;
  const scratch = await mkdtemp(join(tmpdir(), 'bench-store-'));
  try {
    const engineDir = join(scratch, 'engine');
    const lowdbDir = join(scratch, 'lowdb');
    await mkdir(lowdbDir);
    const engine = await benchEngine(engineDir);
    const lowdb = await lowdbPlainWrites(lowdbDir);
    console.log(
      `Store writes: ${ARTICLES * COMMENTS_PER_ARTICLE} comments stored over ${ARTICLES} articles, ${WRITERS} concurrent writers,` +
        ` at most ${MAX_WRITES} writes or ${SECONDS} s (baseline ${BASELINE_SECONDS} s);` +
        ` the store's journal compactions (once the journal holds 16 MiB or what the last one wrote, and every 30 s) run inside the timed phases\n`,
    );
    console.log(row(['run', 'writes', 'writes/s', 'p50 ms', 'p99 ms']));
    console.log(describe('embedded store: insertComment (fsync each)', engine.comments));
    console.log(describe('embedded store: applyVote (fsync each)', engine.votes));
    console.log(describe('lowdb JSONFile per article (no fsync)', lowdb));
    const openRatio = engine.open / lowdb.openMs;
    console.log(
      `\nopen with ${ARTICLES * COMMENTS_PER_ARTICLE} comments: ${engine.open.toFixed(0)} ms, lowdb reading them ${lowdb.openMs.toFixed(0)} ms: ${openRatio.toFixed(2)}× (goal: at most ${TIMES_LOWDB_OPEN}×); close (final compaction): ${engine.close.toFixed(0)} ms`,
    );
    const commentsRatio = engine.comments.writesPerSecond / lowdb.writesPerSecond;
    const votesRatio = engine.votes.writesPerSecond / lowdb.writesPerSecond;
    console.log(`insertComment: ${commentsRatio.toFixed(1)}× lowdb's plain writes; applyVote: ${votesRatio.toFixed(1)}×`);
    measured.writes.push(
      {
        run: 'embedded store: insertComment (fsync each)',
        writesPerSecond: engine.comments.writesPerSecond,
        p99Ms: round(engine.comments.p99),
        kind: 'site',
        judged: { against: LOWDB_RUN, ratio: commentsRatio, least: TIMES_LOWDB_WRITES },
      },
      {
        run: 'embedded store: applyVote (fsync each)',
        writesPerSecond: engine.votes.writesPerSecond,
        p99Ms: round(engine.votes.p99),
        kind: 'site',
        judged: { against: LOWDB_RUN, ratio: votesRatio, least: TIMES_LOWDB_WRITES },
      },
      { run: LOWDB_RUN, writesPerSecond: lowdb.writesPerSecond, p99Ms: round(lowdb.p99), kind: 'baseline' },
    );
    measured.lines.push(
      `The embedded store opens with ${ARTICLES * COMMENTS_PER_ARTICLE} comments in ${engine.open.toFixed(0)} ms, ${openRatio.toFixed(2)}× lowdb reading them (goal: at most ${TIMES_LOWDB_OPEN}×).`,
    );
    if (openRatio > TIMES_LOWDB_OPEN) missed += 1;
    const met = commentsRatio >= TIMES_LOWDB_WRITES && votesRatio >= TIMES_LOWDB_WRITES;
    if (!met) missed += 1;
    console.log(`goal (each kind at least ${TIMES_LOWDB_WRITES}× lowdb's plain writes): ${met ? 'met' : 'NOT met'}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return missed;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

if (import.meta.main) {
  process.exitCode = (await benchStore()) > 0 ? 1 : 0;
  await handBack();
}
