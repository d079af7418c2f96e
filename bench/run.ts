// npm run bench: the site's answers against a bare node:http server sending
// the same bytes, measured in the same run, on loopback, bounded in time.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIsStale, buildSite } from '../scripts/build-site.ts';
import { load, type LoadResult } from './load.ts';
import { PRODUCTION_OBSERVABILITY, type Started, startProcess } from './processes.ts';
import { onLoadCore, PINNED } from './cores.ts';
import { benchPageWeight } from './page-weight.ts';
import { openEmbeddedStore } from '../src/server/store/embedded/engine.ts';
import { benchArchive } from './archive.ts';
import { measured as report, runApart, writeReport } from './report.ts';

const ROOT = process.cwd();
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 20);
const GOAL = 0.5;
/** autocannon takes whole seconds only. */
const HALF_SECONDS = Math.max(1, Math.round(SECONDS / 2));

/** Comments on the article whose thread is measured: a busy thread. */
const THREAD_COMMENTS = 2000;
const THREAD_SLUG = 'the-price-of-a-beer';

const TARGETS = [
  { name: 'GET /api/articles', path: '/api/articles', goal: GOAL },
  { name: 'GET /api/articles?slug=…&lang=ar', path: '/api/articles?slug=the-price-of-a-beer&lang=ar', goal: GOAL },
  { name: 'static article page', path: '/articles/the-price-of-a-beer', goal: GOAL },
  { name: 'GET /api/city-search?q=san', path: '/api/city-search?q=san', goal: GOAL },
  { name: `thread fragment, ${THREAD_COMMENTS} comments`, path: `/threads/${THREAD_SLUG}`, goal: GOAL },
  { name: 'home page (on demand)', path: '/', goal: GOAL },
  { name: 'French home page (on demand)', path: '/fr/', goal: GOAL },
  { name: '/answers (on demand)', path: '/answers', goal: GOAL },
  { name: 'Markdown twin of an article', path: '/articles/the-price-of-a-beer.md', goal: GOAL },
  { name: 'not-found page (404)', path: '/no-such-page', goal: GOAL },
  { name: 'GET /api/votes (private)', path: `/api/votes?slug=${THREAD_SLUG}`, goal: GOAL },
];

/** A store holding a busy thread: THREAD_COMMENTS comments, a fifth of them replies. */
async function storeWithThread(dir: string): Promise<void> {
  const store = await openEmbeddedStore(dir);
  const ids: string[] = [];
  for (let index = 0; index < THREAD_COMMENTS; index++) {
    const parentId = index % 5 === 4 ? (ids[index - 1] ?? null) : null;
    const { id } = await store.insertComment({
      articleSlug: THREAD_SLUG,
      parentId,
      depth: parentId ? 2 : 1,
      author: 'Amber Otter',
      authorHash: `reader-${index % 50}`,
      body: `Comment ${index}: the price of a beer says more about a city than its rent.`,
      status: 'published',
    });
    ids.push(id);
  }
  await store.close();
}

function startSite(dataDir: string): Promise<Started> {
  return startProcess(
    ['scripts/start.ts'],
    { cwd: ROOT, env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...PRODUCTION_OBSERVABILITY }, pinned: true },
    /on (http:\/\/[\d.]+:\d+)/,
    (m) => m[1] ?? '',
  );
}

/** The site's exact answer (status, headers and bytes) for a path, to give the bare server. */
async function capture(url: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const response = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
  if (response.status !== 200 && response.status !== 404) throw new Error(`${url} answered ${response.status}`);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

/** Two loads of one URL as one: requests a second averaged, the worse latencies, every error. */
function together(first: LoadResult, second: LoadResult): LoadResult {
  return {
    requestsPerSecond: (first.requestsPerSecond + second.requestsPerSecond) / 2,
    p50: Math.max(first.p50, second.p50),
    p99: Math.max(first.p99, second.p99),
    errors: first.errors + second.errors,
    non2xx: first.non2xx + second.non2xx,
  };
}

/**
 * The site and the bare server measured in turn, after the same warm-up:
 * site, bare, bare, site, each for half of SECONDS, so that a machine speeding
 * up or slowing down during the pair weighs on both alike.
 */
async function measurePair(siteUrl: string, bareUrl: string): Promise<{ site: LoadResult; bare: LoadResult }> {
  const warmUp = { seconds: 1, connections: CONNECTIONS };
  const half = { seconds: HALF_SECONDS, connections: CONNECTIONS };
  await load(siteUrl, warmUp);
  await load(bareUrl, warmUp);
  const siteFirst = await load(siteUrl, half);
  const bareFirst = await load(bareUrl, half);
  const bareSecond = await load(bareUrl, half);
  const siteSecond = await load(siteUrl, half);
  return { site: together(siteFirst, siteSecond), bare: together(bareFirst, bareSecond) };
}

function row(cells: (string | number)[]): string {
  return cells
    .map((cell, index) =>
      String(cell)
        .padStart(index === 0 ? 0 : 10)
        .padEnd(index === 0 ? 34 : 0),
    )
    .join(' ');
}

function describe(result: LoadResult): (string | number)[] {
  return [Math.round(result.requestsPerSecond), `${result.p50} ms`, `${result.p99} ms`];
}

if (await buildIsStale(ROOT)) await buildSite(ROOT);
const scratch = await mkdtemp(join(tmpdir(), 'bench-'));
await storeWithThread(join(scratch, 'store'));
const site = await startSite(join(scratch, 'store'));
let failures = 0;
try {
  console.log(
    `autocannon, ${CONNECTIONS} connections, ${2 * HALF_SECONDS} s each in two turns (site, bare, bare, site), loopback${PINNED ? ', each server on core 0 and the load generator on core 1' : ''}; goal: at least ${GOAL}× the bare server's requests/s\n`,
  );
  console.log(row(['target', 'site req/s', 'site p50', 'site p99', 'bare req/s', 'bare p50', 'bare p99', 'ratio']));
  for (const target of TARGETS) {
    const url = `${site.url}${target.path}`;
    const responseFile = join(scratch, 'answer.json');
    await writeFile(responseFile, JSON.stringify(await capture(url)));
    const bare = await startProcess(
      ['bench/bare-server.mjs', responseFile],
      { cwd: ROOT, pinned: true },
      /listening on (\d+)/,
      (m) => `http://127.0.0.1:${m[1] ?? ''}`,
    );
    try {
      const { site: measured, bare: baseline } = await onLoadCore(() => measurePair(url, `${bare.url}${target.path}`));
      const ratio = measured.requestsPerSecond / baseline.requestsPerSecond;
      report.reads.push({
        target: target.name,
        siteRequestsPerSecond: measured.requestsPerSecond,
        bareRequestsPerSecond: baseline.requestsPerSecond,
        goal: target.goal,
      });
      // The not-found page answers 404 on purpose, the bare server too.
      if (measured.errors > 0 || (measured.non2xx > 0 && !target.path.includes('no-such-page'))) failures += 1;
      if (ratio < target.goal) failures += 1;
      console.log(
        row([
          target.name,
          ...describe(measured),
          ...describe(baseline),
          `${ratio.toFixed(2)}×${ratio < target.goal ? ' (below goal)' : ''}`,
        ]),
      );
    } finally {
      await bare.stop();
    }
  }
  console.log('');
  failures += await benchPageWeight(site.url);
} finally {
  await site.stop();
  await rm(scratch, { recursive: true, force: true });
}
console.log(failures === 0 ? '\nEvery read target meets its goal.' : `\n${failures} read target(s) missed a goal or had errors.`);
if (failures > 0) process.exitCode = 1;

// The city search and the writes each in a process of its own (runApart): microseconds, latency and memory are
// measured on a fresh heap, not one the loads above filled.
console.log('');
if ((await runApart(ROOT, 'bench/cities.ts')) !== 0) process.exitCode = 1;
console.log('');
let missedWrites = 0;
for (const part of ['bench/store.ts', 'bench/writes.ts', 'bench/postgres-writes.ts'])
  if ((await runApart(ROOT, part)) !== 0) missedWrites += 1;
if (missedWrites > 0) {
  console.log(`\n${missedWrites} part(s) of the write benches missed a goal.`);
  process.exitCode = 1;
}
console.log('');
if ((await benchArchive()) > 0) process.exitCode = 1;
await writeReport(ROOT);
console.log('\nWrote docs/benchmarks.md and its charts.');
