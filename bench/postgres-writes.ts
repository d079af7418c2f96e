// POST /api/comments and POST /api/votes through the whole site on PostgreSQL,
// with 100,000 comments already stored, 50 concurrent writers, every 200
// committed first; next to a same-run baseline: the raw driver inserting the
// same rows, a transaction a row, from 50 connections. The site batches its
// writes (src/server/store/postgres/batcher.ts), so it runs above that line.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresStore } from '../src/server/store/postgres/engine.ts';
import type { ExportRecord } from '../src/server/store/types.ts';
import { handBack, measured } from './report.ts';
import {
  BENCH_ARTICLES,
  CONNECTIONS,
  measureHttpWrites,
  pick,
  PUBLISHED,
  RUNS,
  SECONDS,
  startBenchSite,
  startNotifyingBenchSite,
  WARM_UP_SECONDS,
  writesRow,
} from './writes.ts';

/** The goal: the site's writes at least this many times the raw driver's, a transaction a row, on the same database. */
const TIMES_RAW_DRIVER = 2;

const SERVER_URL = process.env['BENCH_DATABASE_URL'] ?? process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

function* seededComments(articleSlugs: string[]): Generator<ExportRecord> {
  for (let index = 0; index < 100_000; index += 1) {
    yield {
      kind: 'comment',
      comment: {
        id: `seed-${index}`,
        articleSlug: articleSlugs[index % articleSlugs.length] ?? 'x',
        parentId: null,
        depth: 1,
        author: 'Amber otter',
        authorHash: 'f'.repeat(43),
        body: `Comment ${index}: a reader's thoughts on the article, long enough to weigh what a real comment weighs.`,
        createdAt: new Date().toISOString(),
        score: 0,
        deletedAt: null,
        status: 'published',
      },
    };
  }
}

/** The baseline: the same comment rows and revision bump, one transaction each, from 50 connections at once, for `seconds`. */
async function rawDriverBaseline(databaseUrl: string, seconds: number): Promise<{ rate: number; p50: number; p99: number }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS });
  // A connection still closing when the database is dropped (WITH FORCE) is told so: not a failure of the baseline.
  pool.on('error', () => undefined);
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          const started = performance.now();
          const articleSlug = pick(PUBLISHED);
          await client.query('BEGIN');
          await client.query(
            `INSERT INTO comments (id, article_slug, parent_id, depth, author, author_hash, body, created_at, score, deleted_at, parent_depth)
             VALUES ($1, $2, NULL, 1, 'Amber otter', $3, 'A reader thinks this is worth saying.', now(), 0, NULL, NULL)`,
            [`raw-${(next += 1)}-${randomBytes(4).toString('hex')}`, articleSlug, 'f'.repeat(43)],
          );
          await client.query(
            'INSERT INTO revisions (topic, revision) VALUES ($1, 1) ON CONFLICT (topic) DO UPDATE SET revision = revisions.revision + 1',
            [`thread:${articleSlug}`],
          );
          await client.query('COMMIT');
          latencies.push(performance.now() - started);
        }
      } finally {
        client.release();
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) => Math.round(latencies[Math.floor(quantile * (latencies.length - 1))] ?? 0);
  return { rate: latencies.length / seconds, p50: at(0.5), p99: at(0.99) };
}

/**
 * A fresh database on the bench's server holding 100,000 seeded comments over
 * BENCH_ARTICLES, checkpointed, given to `body` by its URL and dropped after.
 */
async function withSeededDatabase<T>(body: (databaseUrl: string) => Promise<T>): Promise<T> {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  try {
    const seeding = await openPostgresStore(databaseUrl, { timeoutMs: null, poolSize: 2, watchBans: false });
    await seeding.importRecords(seededComments(BENCH_ARTICLES));
    await seeding.close();
    // The seeded rows written out now: a checkpoint of them falling into a timed run would weigh on it alone.
    await onServer('CHECKPOINT');
    return await body(databaseUrl);
  } finally {
    await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** Prints the figures; resolves with how many goals were missed. */
export async function benchPostgresWrites(root: string): Promise<number> {
  return withSeededDatabase((databaseUrl) =>
    withSeededDatabase(async (quietDatabaseUrl) => {
      // The baseline first, so that the site's figures are judged as they are printed; it gets the site's warm-up.
      await rawDriverBaseline(databaseUrl, WARM_UP_SECONDS);
      const baseline = await rawDriverBaseline(databaseUrl, SECONDS);
      measured.writes.push({
        run: 'raw pg driver, same rows, a transaction each',
        writesPerSecond: baseline.rate,
        p99Ms: baseline.p99,
        kind: 'baseline',
      });
      const site = await startNotifyingBenchSite(root, { DATABASE_URL: databaseUrl });
      const quiet = await startBenchSite(root, { DATABASE_URL: quietDatabaseUrl }).catch(async (error: unknown) => {
        await site.stop();
        throw error;
      });
      console.log(
        `\nHTTP writes on PostgreSQL: 100000 comments stored over 100 articles, ${CONNECTIONS} concurrent writers, the median of ${RUNS} runs of ${SECONDS} s each, every 200 committed first, notifications on (email and webhook to local sinks)\n`,
      );
      console.log(writesRow(34, 'raw pg, a transaction a row', [Math.round(baseline.rate), `${baseline.p50} ms`, `${baseline.p99} ms`]));
      return measureHttpWrites({ site: site.url, quiet: quiet.url }, 'PostgreSQL', 34, {
        name: 'the raw pg driver, a transaction a row',
        writesPerSecond: baseline.rate,
        least: TIMES_RAW_DRIVER,
      }).finally(() => Promise.all([site.stop(), quiet.stop()]));
    }),
  );
}

if (import.meta.main) {
  process.exitCode = (await benchPostgresWrites(process.cwd())) > 0 ? 1 : 0;
  await handBack();
}
