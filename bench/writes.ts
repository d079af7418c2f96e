// POST /api/comments and POST /api/votes through the whole site (guards,
// identity, quotas, the embedded store), with 100,000 comments already stored
// over 100 articles and 50 concurrent writers; every 200 is on disk first.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { residentMiB, startProcess, type Started } from './processes.ts';
import { measured } from './report.ts';
import { seedEngineFiles } from './store.ts';

export const PUBLISHED = ['writing-in-plain-text', 'a-small-web-server', 'the-price-of-a-beer', 'one-site-fifteen-languages'];
const ORIGIN = 'http://localhost:4321';
export const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
export const CONNECTIONS = 50;
export const GOAL = { writesPerSecond: 2000, p99Ms: 20, residentMiB: 200 };
/** What the bare server is given to answer when its memory is measured: its size hardly matters. */
const BARE_ANSWER = new URL('bare-answer.json', import.meta.url).pathname;

let reader = 0;
/** A new reader for every write, so quotas never refuse one (documentation addresses, hashed on arrival). */
function nextReader(): string {
  reader += 1;
  return `203.0.${Math.floor(reader / 250) % 250}.${(reader % 250) + 1}`;
}

export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/**
 * Writes from CONNECTIONS connections for SECONDS: as fast as they are
 * answered, or paced at `overallRate` writes a second across them all.
 */
export async function loadWrites(
  url: string,
  path: string,
  body: () => unknown,
  overallRate?: number,
): Promise<{ rate: number; p50: number; p99: number; failed: number }> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    ...(overallRate === undefined ? {} : { overallRate }),
    requests: [
      {
        method: 'POST',
        path,
        setupRequest: (request) => ({
          ...request,
          headers: { Origin: ORIGIN, 'Content-Type': 'application/json', 'X-Forwarded-For': nextReader() },
          body: JSON.stringify(body()),
        }),
      },
    ],
  });
  return {
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/** The 100 articles the write benches store 1,000 comments on each: the published ones first. */
export const BENCH_ARTICLES = [...PUBLISHED, ...Array.from({ length: 100 - PUBLISHED.length }, (_, index) => `older-article-${index}`)];

/** The site, started as `npm start` starts it, with `env` added (its store), readers known by X-Forwarded-For. */
export function startBenchSite(root: string, env: Record<string, string>): Promise<Started> {
  return startProcess(
    ['scripts/start.ts'],
    { cwd: root, env: { PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: '1', ...env } },
    /on (http:\/\/[\d.]+:\d+)/,
    (m) => m[1] ?? '',
  );
}

/** A table row: the first cell `width` wide, the figures right-aligned. */
export function writesRow(width: number, name: string, cells: (string | number)[]): string {
  return [name.padEnd(width), ...cells.map((cell, index) => String(cell).padStart(index === 0 ? 10 : 8))].join(' ');
}

/**
 * POST /api/comments and POST /api/votes against a started site, each printed
 * and recorded as `<operation> over HTTP, <store>` next to the goal: first as
 * fast as the site answers (the writes a second and the p99 that the goal
 * reads), then paced at the goal's rate, for the latency a reader sees at
 * that load. Resolves with how many missed the goal.
 */
export async function measureHttpWrites(siteUrl: string, store: string, width: number): Promise<number> {
  console.log(writesRow(width, 'operation', ['writes/s', 'p50', 'p99', 'non-200', `p99 at ${GOAL.writesPerSecond}/s`]));
  const bodies = {
    'POST /api/comments': {
      path: '/api/comments',
      body: () => ({ articleSlug: pick(PUBLISHED), body: 'A reader thinks this is worth saying.' }),
    },
    'POST /api/votes': { path: '/api/votes', body: () => ({ articleSlug: pick(PUBLISHED), value: pick([1, -1]) }) },
  };
  let missed = 0;
  for (const [operation, { path, body }] of Object.entries(bodies)) {
    const run = await loadWrites(siteUrl, path, body);
    const paced = await loadWrites(siteUrl, path, body, GOAL.writesPerSecond);
    const met = run.rate >= GOAL.writesPerSecond && run.p99 < GOAL.p99Ms && run.failed + paced.failed === 0;
    if (!met) missed += 1;
    measured.writes.push({
      run: `${operation} over HTTP, ${store}`,
      writesPerSecond: run.rate,
      p99Ms: run.p99,
      p99AtGoalRateMs: paced.p99,
      kind: 'site',
    });
    const figures = [Math.round(run.rate), `${run.p50} ms`, `${run.p99} ms`, run.failed + paced.failed, `${paced.p99} ms`];
    console.log(`${writesRow(width, operation, figures)}  ${met ? 'goal met' : 'goal NOT met'}`);
  }
  return missed;
}

/** Prints acknowledged writes a second and latency for comments and votes over HTTP. */
export async function benchWrites(root: string): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-writes-'));
  await seedEngineFiles(dataDir, BENCH_ARTICLES);
  const site = await startBenchSite(root, { DATA_DIR: dataDir });
  let missed = 0;
  try {
    console.log(
      `\nHTTP writes: 100000 comments stored over 100 articles, ${CONNECTIONS} concurrent writers, ${SECONDS} s each, every 200 fsync'd first\n`,
    );
    missed += await measureHttpWrites(site.url, 'embedded store', 24);
    // Reads too, then the memory the server holds after both: the build ran in a process of its own.
    await autocannon({ url: `${site.url}/api/articles`, connections: CONNECTIONS, duration: 1 });
    await autocannon({ url: `${site.url}/articles/the-price-of-a-beer`, connections: CONNECTIONS, duration: 1 });
    const resident = await residentMiB(site.pid);
    const bare = await startProcess(['bench/bare-server.mjs', BARE_ANSWER], { cwd: root }, /listening on (\d+)/, (m) => m[1] ?? '');
    const bareResident = await residentMiB(bare.pid);
    await bare.stop();
    if (resident >= GOAL.residentMiB) missed += 1;
    measured.lines.push(
      `Server resident memory after the read and write load, 100,000 comments stored: ${resident.toFixed(0)} MiB (goal: under ${GOAL.residentMiB} MiB); a bare node:http server: ${bareResident.toFixed(0)} MiB.`,
    );
    console.log(
      `\nserver resident memory after the read and write load, 100,000 comments stored: ${resident.toFixed(0)} MiB (${resident < GOAL.residentMiB ? 'goal met' : 'goal NOT met'}: under ${GOAL.residentMiB} MiB); a bare node:http server: ${bareResident.toFixed(0)} MiB`,
    );
    // The city index is read at the first city search: what a site whose readers search cities holds as well.
    await fetch(`${site.url}/api/city-search?q=san`);
    const withCities = await residentMiB(site.pid);
    const citiesLine = `after a first city search (the city index is read then): ${withCities.toFixed(0)} MiB`;
    measured.lines.push(`Server resident memory ${citiesLine}.`);
    console.log(`server resident memory ${citiesLine}`);
  } finally {
    await site.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return missed;
}

if (import.meta.main) process.exitCode = (await benchWrites(process.cwd())) > 0 ? 1 : 0;
