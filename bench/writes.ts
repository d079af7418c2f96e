// POST /api/comments and POST /api/votes through the whole site (guards,
// identity, quotas, the embedded store), with 100,000 comments already stored
// over 100 articles and 50 concurrent writers; every 200 is on disk first.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { median } from './load.ts';
import { pacedPosts } from './paced.ts';
import { PRODUCTION_OBSERVABILITY, residentMiB, type Started, startProcess } from './processes.ts';
import { handBack, measured } from './report.ts';
import { lowdbPlainWrites, seedEngineFiles, TIMES_LOWDB_WRITES } from './store.ts';

export const PUBLISHED = ['writing-in-plain-text', 'a-small-web-server', 'the-price-of-a-beer', 'one-site-fifteen-languages'];
const ORIGIN = 'http://localhost:4321';
export const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
export const CONNECTIONS = 50;
/** Seconds of writes before each measured run, not counted. */
export const WARM_UP_SECONDS = 2;
/** Paced runs send this many writes a second: the latency a reader sees under a busy publication's load, printed, not judged. */
const PACED_RATE = 2000;
/** A server's size: the bench's one absolute goal. */
const RESIDENT_GOAL_MIB = 200;
/** What notifications may cost a comment: its rate without them at most this many times its rate with them. */
const NOTIFICATIONS_COST = 1.15;

/** What the writes over HTTP are judged against: a baseline of the same run, and how many times it they must reach. */
export interface WritesBaseline {
  name: string;
  writesPerSecond: number;
  least: number;
}
/** What the bare server is given to answer when its memory is measured: its size hardly matters. */
const BARE_ANSWER = new URL('bare-answer.json', import.meta.url).pathname;

let reader = 0;
/**
 * A new reader for every write, so quotas never refuse one: an address of
 * 10.0.0.0/8 (hashed on arrival), sixteen million of them, more than a whole
 * bench writes however fast the machine.
 */
function nextReader(): string {
  reader += 1;
  return `10.${(reader >> 16) & 255}.${(reader >> 8) & 255}.${reader & 255}`;
}

export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/** A write's headers and body: a new reader each time, from the site's own origin. */
function writeRequest(body: () => unknown): { headers: Record<string, string>; body: string } {
  return {
    headers: { Origin: ORIGIN, 'Content-Type': 'application/json', 'X-Forwarded-For': nextReader() },
    body: JSON.stringify(body()),
  };
}

/** A timed run's figures; `failed` counts the failures of every run a figure was taken from. */
interface WriteRun {
  rate: number;
  p50: number;
  p99: number;
  failed: number;
}

/**
 * Writes from CONNECTIONS connections, each sent as soon as the last one on its
 * connection is answered: for `seconds` (SECONDS unless given), or `amount` in all.
 */
export async function loadWrites(
  url: string,
  path: string,
  body: () => unknown,
  length: { seconds: number } | { amount: number } = { seconds: SECONDS },
): Promise<WriteRun> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    ...('amount' in length ? { amount: length.amount } : { duration: length.seconds }),
    requests: [{ method: 'POST', path, setupRequest: (request) => ({ ...request, ...writeRequest(body) }) }],
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
    { cwd: root, env: { PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: '1', ...PRODUCTION_OBSERVABILITY, ...env } },
    /on (http:\/\/[\d.]+:\d+)/,
    (m) => m[1] ?? '',
  );
}

/**
 * The site with notifications on, by email and by webhook, to sinks of the
 * bench's own (a real SMTP server and an HTTP receiver on loopback, in a
 * process of their own: bench/notification-sinks.ts): each
 * write measured also puts its notification in the outbox, which the site
 * sends meanwhile, as an owner's site does.
 */
export async function startNotifyingBenchSite(root: string, env: Record<string, string>): Promise<Started> {
  const sinks = await startProcess(['bench/notification-sinks.ts'], { cwd: root }, /sinks (\d+ \S+)/, (m) => m[1] ?? '');
  const [smtpPort, webhookUrl] = sinks.url.split(' ');
  try {
    const site = await startBenchSite(root, {
      ...env,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort ?? ''}`,
      NOTIFY_EMAIL_TO: 'owner@bench.example',
      NOTIFY_WEBHOOK_URL: webhookUrl ?? '',
    });
    return { ...site, stop: () => site.stop().then(() => sinks.stop()) };
  } catch (error) {
    await sinks.stop();
    throw error;
  }
}

/** A table row: the first cell `width` wide, the figures right-aligned. */
export function writesRow(width: number, name: string, cells: (string | number)[]): string {
  return [name.padEnd(width), ...cells.map((cell, index) => String(cell).padStart(index === 0 ? 10 : 8))].join(' ');
}

/** The writes measured: a comment or a vote on one of the published articles. */
const WRITES = {
  'POST /api/comments': {
    path: '/api/comments',
    body: () => ({ articleSlug: pick(PUBLISHED), body: 'A reader thinks this is worth saying.' }),
  },
  'POST /api/votes': { path: '/api/votes', body: () => ({ articleSlug: pick(PUBLISHED), value: pick([1, -1]) }) },
};

/**
 * How many timed runs each write figure is taken from: the machine's speed
 * moves from one run to the next, and a cost judged within 15 % needs more
 * than three turns' ratios to outvote a disturbed one.
 */
export const RUNS = 5;

/** One site's runs of a write: the run of median p99 (its failures those of all its runs), and its rate in each turn. */
interface SiteRuns {
  run: WriteRun;
  rates: number[];
}

/**
 * RUNS timed runs of the same writes on each site of `urls`, the sites taking
 * turns, every other turn the other way round (so that a slower minute of the
 * machine falls on each of them alike), after WARM_UP_SECONDS of them on each.
 */
async function runsInTurn(urls: readonly string[], path: string, body: () => unknown): Promise<SiteRuns[]> {
  // Not counted: the goal is the site's steady pace, not that of its first seconds (code not yet optimized, the
  // store's connections being opened), which weigh on the p99 of a short run.
  for (const url of urls) await loadWrites(url, path, body, { seconds: WARM_UP_SECONDS });
  const runs = urls.map((): WriteRun[] => []);
  for (let turn = 0; turn < RUNS; turn += 1) {
    const order = turn % 2 === 0 ? [...urls.keys()] : [...urls.keys()].reverse();
    for (const index of order) runs[index]?.push(await loadWrites(urls[index] ?? '', path, body));
  }
  return runs.map((ofSite) => {
    const median = [...ofSite].sort((a, b) => a.p99 - b.p99)[Math.floor(ofSite.length / 2)] as WriteRun;
    return { run: { ...median, failed: ofSite.reduce((sum, run) => sum + run.failed, 0) }, rates: ofSite.map((run) => run.rate) };
  });
}

/**
 * POST /api/comments and POST /api/votes against a started site, each printed
 * and recorded as `<operation> over HTTP, <store>`: the median of RUNS runs as
 * fast as the site answers, judged against `baseline` (at least `least` times
 * its writes a second, and no failure), then paced evenly at PACED_RATE
 * (bench/paced.ts), for the latency a reader sees at that load. The comments'
 * runs take turns with the same comments on `quietUrl`, a site like it with
 * no notification channel, recorded as the baseline `…, notifications off`:
 * what notifications cost a comment, judged too. Resolves with how many
 * goals were missed.
 */
export async function measureHttpWrites(
  urls: { site: string; quiet: string },
  store: string,
  width: number,
  baseline: WritesBaseline,
): Promise<number> {
  console.log(writesRow(width, 'operation', ['writes/s', 'p50', 'p99', 'non-200', `p99 at ${PACED_RATE}/s`, 'ratio']));
  let missed = 0;
  let quiet: SiteRuns | undefined;
  let comments: SiteRuns | undefined;
  for (const [operation, { path, body }] of Object.entries(WRITES)) {
    const [runs, without] = await runsInTurn(operation === 'POST /api/comments' ? [urls.site, urls.quiet] : [urls.site], path, body);
    if (!runs) throw new Error(`no run of ${operation}`);
    const { run } = runs;
    quiet ??= without;
    if (operation === 'POST /api/comments') comments = runs;
    const paced = await pacedPosts(`${urls.site}${path}`, () => writeRequest(body), {
      rate: PACED_RATE,
      seconds: SECONDS,
      connections: CONNECTIONS,
    });
    const ratio = run.rate / baseline.writesPerSecond;
    const met = ratio >= baseline.least && run.failed + paced.failed === 0;
    if (!met) missed += 1;
    measured.writes.push({
      run: `${operation} over HTTP, ${store}`,
      writesPerSecond: run.rate,
      p99Ms: run.p99,
      p99AtGoalRateMs: paced.p99,
      kind: 'site',
      judged: { against: `${baseline.name} (${Math.round(baseline.writesPerSecond)} writes/s)`, ratio, least: baseline.least },
    });
    const figures = [
      Math.round(run.rate),
      `${run.p50} ms`,
      `${run.p99} ms`,
      run.failed + paced.failed,
      `${paced.p99} ms`,
      `${ratio.toFixed(2)}×`,
    ];
    console.log(`${writesRow(width, operation, figures)}  ${met ? 'goal met' : 'goal NOT met'}`);
  }
  if (quiet && comments) {
    const { run: quietRun, rates: quietRates } = quiet;
    measured.writes.push({
      run: `POST /api/comments over HTTP, ${store}, notifications off`,
      writesPerSecond: quietRun.rate,
      p99Ms: quietRun.p99,
      kind: 'baseline',
    });
    // Each turn's pair compared, and the median of those: a minute that slows the machine slows both sides of a turn.
    const siteRates = comments.rates;
    const cost = median(quietRates.map((rate, turn) => rate / (siteRates[turn] ?? Number.NaN)));
    const met = cost <= NOTIFICATIONS_COST;
    if (!met) missed += 1;
    const figures = [Math.round(quietRun.rate), `${quietRun.p50} ms`, `${quietRun.p99} ms`, quietRun.failed, '', ''];
    console.log(`${writesRow(width, 'POST /api/comments, notifications off', figures)}  (baseline)`);
    console.log(
      `notifications cost a comment ${cost.toFixed(2)}×, the median of ${RUNS} turns' ratios (${met ? 'goal met' : 'goal NOT met'}: at most ${NOTIFICATIONS_COST}×)`,
    );
    measured.lines.push(
      `Notifications cost a comment over HTTP, ${store}: ${cost.toFixed(2)}×, the same comments without them, in turn (the median of ${RUNS} turns' ratios), ${Math.round(quietRun.rate)} writes/s against ${Math.round(comments.run.rate)} (goal: at most ${NOTIFICATIONS_COST}×${met ? '' : ', missed'}).`,
    );
  }
  console.log(
    `goal: each kind at least ${baseline.least}× ${baseline.name} (${Math.round(baseline.writesPerSecond)} writes/s in this run), no failure`,
  );
  return missed;
}

/**
 * A site on the embedded store with BENCH_ARTICLES' 100,000 comments, its data removed once `body` is done with it;
 * `start` starts it (with notifications on, or not).
 */
async function withSeededSite<T>(root: string, start: typeof startBenchSite, body: (site: Started) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-writes-'));
  try {
    await seedEngineFiles(dataDir, BENCH_ARTICLES);
    const site = await start(root, { DATA_DIR: dataDir });
    try {
      return await body(site);
    } finally {
      await site.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Writes of each kind before the memory goal's figure is read: a fixed load,
 * the same on any machine.
 */
const MEMORY_LOAD = { 'POST /api/comments': 40_000, 'POST /api/votes': 50_000 };

/**
 * The memory goal's figure: the resident memory of a site started on 100,000
 * comments, after a load of the same size on any machine (MEMORY_LOAD, sent
 * as fast as the site answers, then a second of reads of each kind). Read
 * after the timed runs, it would grow with the machine's speed: a faster
 * one writes more comments in the same seconds, and the threads being
 * written to are held in memory whole.
 */
async function benchMemory(root: string): Promise<number> {
  return withSeededSite(root, startBenchSite, async (site) => {
    let failed = 0;
    for (const [operation, { path, body }] of Object.entries(WRITES)) {
      failed += (await loadWrites(site.url, path, body, { amount: MEMORY_LOAD[operation as keyof typeof MEMORY_LOAD] })).failed;
    }
    await autocannon({ url: `${site.url}/api/articles`, connections: CONNECTIONS, duration: 1 });
    await autocannon({ url: `${site.url}/articles/the-price-of-a-beer`, connections: CONNECTIONS, duration: 1 });
    const resident = await residentMiB(site.pid);
    const bare = await startProcess(['bench/bare-server.mjs', BARE_ANSWER], { cwd: root }, /listening on (\d+)/, (m) => m[1] ?? '');
    const bareResident = await residentMiB(bare.pid);
    await bare.stop();
    const writes = `${MEMORY_LOAD['POST /api/comments'].toLocaleString('en')} comments and ${MEMORY_LOAD['POST /api/votes'].toLocaleString('en')} votes`;
    const met = resident < RESIDENT_GOAL_MIB && failed === 0;
    measured.lines.push(
      `Server resident memory with 100,000 comments stored, after ${writes} and a second of reads of each kind: ${resident.toFixed(0)} MiB (goal: under ${RESIDENT_GOAL_MIB} MiB); a bare node:http server: ${bareResident.toFixed(0)} MiB.`,
    );
    console.log(
      `\nserver resident memory with 100,000 comments stored, after ${writes} (${failed} failed) and a second of reads of each kind: ${resident.toFixed(0)} MiB (${met ? 'goal met' : 'goal NOT met'}: under ${RESIDENT_GOAL_MIB} MiB); a bare node:http server: ${bareResident.toFixed(0)} MiB`,
    );
    // The city index is read at the first city search: what a site whose readers search cities holds as well.
    await fetch(`${site.url}/api/city-search?q=san`);
    const citiesLine = `after a first city search (the city index is read then): ${(await residentMiB(site.pid)).toFixed(0)} MiB`;
    measured.lines.push(`Server resident memory ${citiesLine}.`);
    console.log(`server resident memory ${citiesLine}`);
    return met ? 0 : 1;
  });
}

/** lowdb's plain writes of the same comments, in this process: what the embedded store's writes over HTTP are judged against. */
async function lowdbBaseline(): Promise<WritesBaseline> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-lowdb-'));
  try {
    const { writesPerSecond } = await lowdbPlainWrites(dir);
    return { name: "lowdb's plain writes, a JSONFile per article", writesPerSecond, least: TIMES_LOWDB_WRITES };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Prints acknowledged writes a second and latency for comments and votes over HTTP, then the memory figure. */
export async function benchWrites(root: string): Promise<number> {
  const baseline = await lowdbBaseline();
  const missed = await withSeededSite(root, startNotifyingBenchSite, (site) =>
    withSeededSite(root, startBenchSite, async (quiet) => {
      console.log(
        `\nHTTP writes: 100000 comments stored over 100 articles, ${CONNECTIONS} concurrent writers, the median of ${RUNS} runs of ${SECONDS} s each, every 200 fsync'd first, notifications on (email and webhook to local sinks)\n`,
      );
      const missedWrites = await measureHttpWrites({ site: site.url, quiet: quiet.url }, 'embedded store', 24, baseline);
      // The build ran in a process of its own: what the server holds is its own.
      const line = `after these writes as fast as the site answers (the threads written to held whole; no goal, as it grows with the machine's speed): ${(await residentMiB(site.pid)).toFixed(0)} MiB`;
      measured.lines.push(`Server resident memory ${line}.`);
      console.log(`\nserver resident memory ${line}`);
      return missedWrites;
    }),
  );
  return missed + (await benchMemory(root));
}

if (import.meta.main) {
  process.exitCode = (await benchWrites(process.cwd())) > 0 ? 1 : 0;
  await handBack();
}
