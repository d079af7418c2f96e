// The audience part of `npm run bench` (bench/run.ts runs it apart): a
// publication with 10,000 newsletter subscribers and 1,000 fediverse
// followers, on the site built with NEWSLETTER and FEDERATION on. Its reads
// and writes against the default site (both off, an empty store) in the same
// run, in turns; then an article's date arrives (the server's clock moved, no
// rebuild): the time from its appearance to its issues queued for every
// subscriber, and to its Create delivered to every follower's inbox (a
// receiver on loopback counting the signed POSTs), read from what the store
// recorded.
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onLoadCore } from './cores.ts';
import { load, median } from './load.ts';
import { PRODUCTION_OBSERVABILITY, startProcess, type Started } from './processes.ts';
import { handBack, measured } from './report.ts';
import { CONNECTIONS as WRITERS, loadWrites } from './writes.ts';
import { openEmbeddedStore } from '../src/server/store/embedded/engine.ts';
import type { ExportRecord } from '../src/server/store/types.ts';

const ROOT = process.cwd();
const SUBSCRIBERS = 10_000;
const FOLLOWERS = 1_000;
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const HALF_SECONDS = Math.max(1, Math.round(SECONDS / 2));
/**
 * Reads and writes with the audience at least this many times the default
 * site's: unchanged, within what two runs of one site differ by on a busy
 * 2-core machine (its pages also carry the subscribe form and the follow line).
 */
const GOAL = 0.85;
const ARTICLE = 'the-price-of-a-beer';
const PROJECT_FILES = ['src', 'content', 'public', 'scripts', 'migrations', 'astro.config.mjs', 'package.json', 'tsconfig.json'];
/** The article whose date arrives while the bench watches, two days from now. */
const NEW_ARTICLE = 'bench-audience-article';
const DAY_MS = 86_400_000;
const CLOCK = join(ROOT, 'tests', 'support', 'clock.ts');

/** The audience as an export's records: confirmed English subscribers, and followers of the English actor, each with an inbox of its own. */
function audienceRecords(inboxes: string): ExportRecord[] {
  const at = new Date().toISOString();
  const subscribers = Array.from({ length: SUBSCRIBERS }, (_, index): ExportRecord => {
    const item = { id: `bench-subscriber-${index}`, email: `reader-${index}@bench.example`, lang: 'en' as const };
    return { kind: 'subscriber', item: { ...item, status: 'confirmed', createdAt: at, confirmedAt: at, confirmationSentAt: at } };
  });
  const followers = Array.from({ length: FOLLOWERS }, (_, index): ExportRecord => {
    const actorId = `${inboxes}/actors/${index}`;
    return { kind: 'follower', item: { lang: 'en', actorId, inbox: `${actorId}/inbox`, sharedInbox: null, followedAt: at } };
  });
  return [...subscribers, ...followers];
}

async function storeWithAudience(dir: string, inboxes: string): Promise<void> {
  const store = await openEmbeddedStore(dir);
  await store.importRecords(audienceRecords(inboxes));
  await store.close();
}

/** A copy of the project, to be built with the audience's build settings beside the default build. */
async function projectCopy(scratch: string): Promise<string> {
  const dir = join(scratch, 'site');
  await mkdir(dir);
  for (const file of PROJECT_FILES) await cp(join(ROOT, file), join(dir, file), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const template = await readFile(join(ROOT, 'content', 'articles', ARTICLE, 'en.md'), 'utf8');
  const date = new Date(Date.now() + 2 * DAY_MS).toISOString().slice(0, 10);
  await mkdir(join(dir, 'content', 'articles', NEW_ARTICLE));
  const scheduled = template.replace(/^title: "(.*)"$/m, 'title: "$1, again"').replace(/^date: .*$/m, `date: ${date}`);
  await writeFile(join(dir, 'content', 'articles', NEW_ARTICLE, 'en.md'), scheduled);
  return dir;
}

function startSite(dir: string, env: Record<string, string>, preload: string[] = []): Promise<Started> {
  return startProcess(
    [...preload, 'scripts/start.ts'],
    { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: '1', ...PRODUCTION_OBSERVABILITY, ...env }, pinned: true },
    /on (http:\/\/[\d.]+:\d+)/,
    (m) => m[1] ?? '',
  );
}

interface Inboxes {
  url: string;
  received: () => number;
  stop: () => Promise<void>;
}

/** A receiver of activities on loopback: answers 202 to each POST and counts them. */
async function startInboxes(): Promise<Inboxes> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method === 'POST') received += 1;
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    stop: () =>
      new Promise<void>((closed) => {
        server.close(() => {
          closed();
        });
      }),
  };
}

/** Rounds of turns each comparison takes: a round is plain, audience, audience, plain; the median round's ratio is judged. */
const ROUNDS = 3;

interface Compared {
  name: string;
  plain: number;
  audience: number;
  /** The median of the rounds' ratios, audience to plain. */
  ratio: number;
}

/**
 * ROUNDS rounds of `rate` on each site in turns: what the machine does
 * meanwhile falls on both alike, and a round it disturbed is outvoted.
 */
async function inRounds(name: string, rate: (site: 'plain' | 'audience') => Promise<number>): Promise<Compared> {
  const plain: number[] = [];
  const audience: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const first = await rate('plain');
    const withAudience = (await rate('audience')) + (await rate('audience'));
    plain.push((first + (await rate('plain'))) / 2);
    audience.push(withAudience / 2);
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return { name, plain: mean(plain), audience: mean(audience), ratio: median(audience.map((value, index) => value / (plain[index] ?? 1))) };
}

/** One read target on both sites, after a warm-up of each. */
async function compareReads(path: string, sites: Record<'plain' | 'audience', string>): Promise<Compared> {
  const half = { seconds: HALF_SECONDS, connections: 20 };
  return onLoadCore(async () => {
    for (const url of Object.values(sites)) await load(`${url}${path}`, { seconds: 1, connections: 20 });
    return inRounds(`GET ${path}`, async (site) => (await load(`${sites[site]}${path}`, half)).requestsPerSecond);
  });
}

/** Comments over HTTP on both sites. */
function compareWrites(sites: Record<'plain' | 'audience', string>): Promise<Compared> {
  const body = () => ({ articleSlug: ARTICLE, body: `A thought on the audience, ${Math.random()}` });
  return inRounds(
    `POST /api/comments (${WRITERS} writers)`,
    async (site) => (await loadWrites(sites[site], '/api/comments', body, { seconds: HALF_SECONDS })).rate,
  );
}

/** The audience site's settings: newsletter and federation on, emails to the bench's sink. */
function audienceSettings(dataDir: string, smtpPort: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    NEWSLETTER: 'on',
    FEDERATION: 'on',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    NEWSLETTER_FROM: 'news@bench.example',
    FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1',
  };
}

/** Reads and writes with the audience against the default site; resolves with the number of goals missed. */
async function compareSites(audience: Started, scratch: string): Promise<number> {
  const plain = await startSite(ROOT, { DATA_DIR: join(scratch, 'plain-store') });
  try {
    const sites = { plain: plain.url, audience: audience.url };
    const rows = [await compareReads(`/articles/${ARTICLE}`, sites), await compareReads('/', sites), await compareWrites(sites)];
    console.log(`\n${'target'.padEnd(40)} ${'default'.padStart(10)} ${'audience'.padStart(10)}   median ratio (goal ≥ ${GOAL}×)`);
    let missed = 0;
    for (const { name, plain: base, audience: withAudience, ratio } of rows) {
      if (ratio < GOAL) missed += 1;
      const figures = `${Math.round(base).toString().padStart(10)} ${Math.round(withAudience).toString().padStart(10)}`;
      console.log(`${name.padEnd(40)} ${figures}   ${ratio.toFixed(2)}×${ratio < GOAL ? ' (below goal)' : ''}`);
      measured.lines.push(
        `With ${SUBSCRIBERS} subscribers and ${FOLLOWERS} followers, newsletter and federation on: ${name} at ${ratio.toFixed(2)}× the default site's rate (goal ≥ ${GOAL}×).`,
      );
    }
    return missed;
  } finally {
    await plain.stop();
  }
}

/** Milliseconds from one ISO 8601 time to another. */
function between(from: string, to: string): number {
  return Date.parse(to) - Date.parse(from);
}

/**
 * The site started again two days later by its clock: the new article
 * appears at start, its issues and deliveries are queued, and the deliveries
 * POSTed. Timed from the store's own records once every inbox has its POST.
 */
async function timeOneArticle(copy: string, settings: Record<string, string>, inboxes: Inboxes): Promise<void> {
  const later = new Date(Date.now() + 3 * DAY_MS).toISOString();
  const site = await startSite(copy, { ...settings, TEST_CLOCK: later }, ['--import', CLOCK]);
  try {
    const deadline = Date.now() + 300_000;
    while (inboxes.received() < FOLLOWERS && Date.now() < deadline) await new Promise((tick) => setTimeout(tick, 50));
  } finally {
    await site.stop();
  }
  const store = await openEmbeddedStore(settings['DATA_DIR'] ?? '');
  const records: ExportRecord[] = [];
  for await (const record of store.exportRecords()) records.push(record);
  await store.close();
  const appeared = records.find((record) => record.kind === 'appearance' && record.item.slug === NEW_ARTICLE);
  const issues = records.flatMap((record) => (record.kind === 'newsletterIssue' && record.item.slug === NEW_ARTICLE ? [record.item] : []));
  const delivered = records.flatMap((record) =>
    record.kind === 'delivery' && record.item.settledAt !== null ? [record.item.settledAt] : [],
  );
  if (appeared?.kind !== 'appearance' || issues.length !== SUBSCRIBERS || delivered.length !== FOLLOWERS)
    throw new Error(`the new article reached ${issues.length} subscribers and ${delivered.length} followers`);
  const queued = Math.max(...issues.map((issue) => between(appeared.item.appearedAt, issue.createdAt)));
  const fannedOut = Math.max(...delivered.map((settledAt) => between(appeared.item.appearedAt, settledAt)));
  const lines = [
    `An article whose date arrived, queued for ${SUBSCRIBERS} subscribers ${queued} ms after it appeared (embedded store).`,
    `The same article delivered to ${FOLLOWERS} followers, each with an inbox of its own on one host (4 POSTs at a time, the worst case), ${(fannedOut / 1000).toFixed(1)} s after it appeared.`,
  ];
  for (const line of lines) console.log(line);
  measured.lines.push(...lines);
}

export async function benchAudience(): Promise<number> {
  const scratch = await mkdtemp(join(tmpdir(), 'bench-audience-'));
  const inboxes = await startInboxes();
  const sinks = await startProcess(['bench/notification-sinks.ts'], { cwd: ROOT }, /sinks (\d+) /, (m) => m[1] ?? '');
  try {
    console.log(`An audience: ${SUBSCRIBERS} confirmed subscribers and ${FOLLOWERS} followers.`);
    const settings = audienceSettings(join(scratch, 'audience-store'), sinks.url);
    await storeWithAudience(settings['DATA_DIR'] ?? '', inboxes.url);
    const copy = await projectCopy(scratch);
    console.log('Building the site with NEWSLETTER and FEDERATION on (a build of its own)…');
    const audience = await startSite(copy, settings);
    let missed: number;
    try {
      missed = await compareSites(audience, scratch);
    } finally {
      await audience.stop();
    }
    console.log('');
    await timeOneArticle(copy, settings, inboxes);
    console.log(
      missed === 0 ? '\nWith the audience, reads and writes meet their goal.' : `\n${missed} audience target(s) missed the goal.`,
    );
    return missed;
  } finally {
    await Promise.all([inboxes.stop(), sinks.stop()]);
    await rm(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  process.exitCode = (await benchAudience()) > 0 ? 1 : 0;
  await handBack();
}
