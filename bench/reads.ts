// The read part of `npm run bench` (bench/run.ts runs it apart): each read
// target of the site against a bare node:http server sending the same bytes,
// measured in the same run, on loopback, bounded in time. The site runs as
// `npm start` runs it by default (an access line a request, metrics served);
// the same site with its log at `warn` is measured after it, for comparison.
// Run alone (`node bench/reads.ts`), it prints its figures and writes none.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inTurns, type LoadResult } from './load.ts';
import { PRODUCTION_OBSERVABILITY, startBareServer, type Started, startProcess } from './processes.ts';
import { onLoadCore, PINNED } from './cores.ts';
import { benchPageWeight } from './page-weight.ts';
import { openEmbeddedStore } from '../src/server/store/embedded/engine.ts';
import { handBack, measured as report } from './report.ts';

const ROOT = process.cwd();
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 20);
const GOAL = 0.8;
/** Only the targets whose name holds this text, when set: one path measured alone, as `npm run bench` measures it. */
const ONLY = process.env['BENCH_READS'] ?? '';
/** Each server's turns of a target, a second each (bench/load.ts, inTurns): six with the default SECONDS. */
const ROUNDS = Math.max(3, Math.round(SECONDS * 1.2));

/** Comments on the article whose page and thread are measured. */
const THREAD_COMMENTS = 50;
const THREAD_SLUG = 'the-price-of-a-beer';

const TARGETS = [
  { name: 'GET /api/articles', path: '/api/articles', goal: GOAL },
  { name: 'GET /api/articles?slug=…&lang=ar', path: '/api/articles?slug=the-price-of-a-beer&lang=ar', goal: GOAL },
  { name: `article page, thread of ${THREAD_COMMENTS} comments`, path: '/articles/the-price-of-a-beer', goal: GOAL },
  { name: 'GET /api/city-search?q=san', path: '/api/city-search?q=san', goal: GOAL },
  { name: `thread fragment, ${THREAD_COMMENTS} comments`, path: `/threads/${THREAD_SLUG}`, goal: GOAL },
  { name: 'home page (on demand)', path: '/', goal: GOAL },
  { name: 'French home page (on demand)', path: '/fr/', goal: GOAL },
  { name: '/answers (on demand)', path: '/answers', goal: GOAL },
  { name: 'Markdown twin of an article', path: '/articles/the-price-of-a-beer.md', goal: GOAL },
  { name: 'not-found page (404)', path: '/no-such-page', goal: GOAL },
  { name: 'GET /api/votes (private)', path: `/api/votes?slug=${THREAD_SLUG}`, goal: GOAL },
];

/** A store holding a thread: THREAD_COMMENTS comments, a fifth of them replies. */
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

/** The site on `dataDir`, with the defaults a user runs, its log level aside. */
function startSite(dataDir: string, logLevel: 'info' | 'warn'): Promise<Started> {
  return startProcess(
    ['scripts/start.ts'],
    { cwd: ROOT, env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...PRODUCTION_OBSERVABILITY, LOG_LEVEL: logLevel }, pinned: true },
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

/** What one target measured: the site by default, the site with its log at `warn`, and the bare server. */
interface TargetFigures {
  measured: LoadResult;
  baseline: LoadResult;
  /** The site's rate over the bare server's, and the quiet site's: each the median of the rounds' (inTurns). */
  ratio: number;
  quietRatio: number;
}

/**
 * The site, the bare server and the quiet site (its log at `warn`) measured
 * in turns (bench/load.ts, inTurns), the bare server always between the two
 * sites, so that each ratio is of slices side by side.
 */
async function measureInTurn(siteUrl: string, bareUrl: string, quietUrl: string): Promise<TargetFigures> {
  const turns = await inTurns({ site: siteUrl, bare: bareUrl, quiet: quietUrl }, { rounds: ROUNDS, connections: CONNECTIONS });
  return {
    measured: turns.overall('site'),
    baseline: turns.overall('bare'),
    ratio: turns.ratio('site', 'bare'),
    quietRatio: turns.ratio('quiet', 'bare'),
  };
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

/** One target, against a bare server sending the site's answer to it. */
async function measureTarget(path: string, site: Started, quietSite: Started, scratch: string): Promise<TargetFigures> {
  const url = `${site.url}${path}`;
  const responseFile = join(scratch, 'answer.json');
  await writeFile(responseFile, JSON.stringify(await capture(url)));
  const bare = await startBareServer(ROOT, 'bare-server.mjs', responseFile);
  try {
    return await onLoadCore(() => measureInTurn(url, `${bare.url}${path}`, `${quietSite.url}${path}`));
  } finally {
    await bare.stop();
  }
}

/** Measures every target, prints and reports each; resolves with the number of targets that missed their goal or had errors. */
async function measureTargets(site: Started, quietSite: Started, scratch: string): Promise<number> {
  let failures = 0;
  console.log(
    `autocannon, ${CONNECTIONS} connections, ${ROUNDS} rounds of a second each (site, bare, site at warn; then the other way), each ratio the median of its rounds, loopback${PINNED ? ', each server on core 0 and the load generator on core 1' : ''}; the site with an access line a request and metrics on; goal: at least ${GOAL}× the bare server's requests/s\n`,
  );
  console.log(row(['target', 'site req/s', 'site p50', 'site p99', 'bare req/s', 'bare p50', 'bare p99', 'ratio', 'at warn']));
  for (const target of TARGETS.filter(({ name }) => name.includes(ONLY))) {
    const { measured, baseline, ratio, quietRatio } = await measureTarget(target.path, site, quietSite, scratch);
    report.reads.push({ target: target.name, ratio, quietRatio, goal: target.goal });
    // The not-found page answers 404 on purpose, the bare server too.
    if (measured.errors > 0 || (measured.non2xx > 0 && !target.path.includes('no-such-page'))) failures += 1;
    if (ratio < target.goal) failures += 1;
    console.log(
      row([
        target.name,
        ...describe(measured),
        ...describe(baseline),
        `${ratio.toFixed(2)}×${ratio < target.goal ? ' (below goal)' : ''}`,
        `${quietRatio.toFixed(2)}×`,
      ]),
    );
  }
  return failures;
}

const scratch = await mkdtemp(join(tmpdir(), 'bench-'));
await storeWithThread(join(scratch, 'store'));
await storeWithThread(join(scratch, 'quiet-store'));
const site = await startSite(join(scratch, 'store'), 'info');
const quietSite = await startSite(join(scratch, 'quiet-store'), 'warn');
let failures = 0;
try {
  failures += await measureTargets(site, quietSite, scratch);
  console.log('');
  failures += await benchPageWeight(site.url);
} finally {
  await Promise.all([site.stop(), quietSite.stop()]);
  await rm(scratch, { recursive: true, force: true });
}
console.log(failures === 0 ? '\nEvery read target meets its goal.' : `\n${failures} read target(s) missed a goal or had errors.`);
if (failures > 0) process.exitCode = 1;
await handBack();
