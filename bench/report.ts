// What `npm run bench` measured, gathered as it goes, then written to
// docs/benchmarks.md with two charts drawn by Vega-Lite (SVG).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export interface ReadFigure {
  target: string;
  /** The site's requests a second over the bare server's, the median of its rounds (bench/load.ts, inTurns). */
  ratio: number;
  /** The same site with its log at `warn`, against the same bare server: for comparison, no goal. */
  quietRatio: number;
  goal: number;
}

export interface WriteFigure {
  /** What was written, and through what: "POST /api/comments over HTTP, embedded store". */
  run: string;
  writesPerSecond: number;
  p99Ms: number;
  /** The p99 of the same writes paced at the goal's 2,000 a second, where measured. */
  p99AtGoalRateMs?: number;
  /** What it is measured against in the same run (lowdb's plain writes, the raw driver), or itself a baseline. */
  kind: 'site' | 'baseline';
  /** A site row's goal: its writes a second over those of `against`, a baseline row of the same run, at least `least`. */
  judged?: { against: string; ratio: number; least: number };
}

export const measured = { reads: [] as ReadFigure[], writes: [] as WriteFigure[], lines: [] as string[] };

/**
 * Runs a part of the bench (`node <script> <figures file>`) in a process of
 * its own, so that its load generator works on a fresh heap, not one the
 * parts before it filled, whose collections would count as the site's
 * latency. Resolves with the part's exit code once its figures are added to
 * `measured`, in the order it measured them.
 */
export async function runApart(root: string, script: string): Promise<number> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-figures-'));
  try {
    const figures = join(folder, 'figures.json');
    const part = spawn(process.execPath, [script, figures], { cwd: root, stdio: 'inherit' });
    const [code] = (await once(part, 'exit')) as [number | null];
    const handed = JSON.parse(await readFile(figures, 'utf8').catch(() => '{}')) as Partial<typeof measured>;
    measured.reads.push(...(handed.reads ?? []));
    measured.writes.push(...(handed.writes ?? []));
    measured.lines.push(...(handed.lines ?? []));
    return code ?? 1;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** In a part run apart (runApart): writes what it measured to the file named by its parent; run alone, nothing. */
export async function handBack(): Promise<void> {
  const figures = process.argv[2];
  if (figures) await writeFile(figures, JSON.stringify(measured));
}

async function svgOf(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  return view.toSVG();
}

function readsChart(): TopLevelSpec {
  const values = measured.reads.flatMap((figure) => [
    { target: figure.target, log: 'access log on (info)', ratio: figure.ratio },
    { target: figure.target, log: 'log at warn', ratio: figure.quietRatio },
  ]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Reads: requests a second, this site over a bare server sending the same bytes (same run)',
    width: 420,
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'target', type: 'nominal', title: null, sort: null },
      yOffset: { field: 'log' },
      x: { field: 'ratio', type: 'quantitative', title: 'site / bare server' },
      color: { field: 'log', type: 'nominal', title: null, legend: { orient: 'bottom' } },
    },
  };
}

function writesChart(): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Writes: acknowledged writes a second (each durable first), against their same-run baselines',
    width: 420,
    data: { values: measured.writes.map((figure) => ({ ...figure, writesPerSecond: Math.round(figure.writesPerSecond) })) },
    mark: 'bar',
    encoding: {
      y: { field: 'run', type: 'nominal', title: null, sort: null },
      x: { field: 'writesPerSecond', type: 'quantitative', title: 'writes / s' },
      color: { field: 'kind', type: 'nominal', title: null, legend: { orient: 'bottom' } },
    },
  };
}

function table(header: string[], rows: (string | number)[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join(
    '\n',
  );
}

/** Writes docs/benchmarks.md and its two charts. */
export async function writeReport(root: string): Promise<void> {
  const docs = join(root, 'docs');
  await writeFile(join(docs, 'benchmarks-reads.svg'), await svgOf(readsChart()));
  await writeFile(join(docs, 'benchmarks-writes.svg'), await svgOf(writesChart()));
  const cpu = cpus();
  const text = `# Benchmarks

Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, everything (server, database, load generator) on the same machine, over loopback. Figures move by 10–30 % from one run to the next on this machine; each ratio is taken against a baseline measured in the same run.

## Reads

![Reads: this site against a bare node:http server](benchmarks-reads.svg)

Each ratio is the site's requests a second over those of a bare \`node:http\` server sending the same bytes, measured in
turns in the same run: requests a second alone say more of the machine than of the site, whose speed swings twofold
within seconds. Each server takes a second in turn, six rounds a target, and the ratio is the median over the rounds of
the two rates measured side by side, so that a swing falls on one round, not on the figure. The site runs as \`npm start\`
runs it by default: an access line a request (\`LOG_LEVEL=info\`) and metrics served (\`METRICS_PORT\`), the article's
thread holding 50 comments. The last column is the same site with its log at \`warn\`, for comparison.

${table(
  ['target', 'ratio', 'goal', 'ratio at warn'],
  measured.reads.map((figure) => {
    const { ratio } = figure;
    return [
      figure.target,
      `${ratio.toFixed(2)}×`,
      `${figure.goal}×${ratio < figure.goal ? ' (missed)' : ''}`,
      `${figure.quietRatio.toFixed(2)}×`,
    ];
  }),
)}

## Writes

![Writes against their baselines](benchmarks-writes.svg)

${table(
  ['run', 'writes/s', 'p99', 'p99 at 2,000/s', 'ratio', 'against', 'goal'],
  measured.writes.map((figure) => [
    figure.run,
    Math.round(figure.writesPerSecond),
    `${figure.p99Ms} ms`,
    figure.p99AtGoalRateMs === undefined ? '' : `${figure.p99AtGoalRateMs} ms`,
    figure.judged ? `${figure.judged.ratio.toFixed(2)}×` : '',
    figure.judged?.against ?? '(baseline)',
    figure.judged ? `≥ ${figure.judged.least}×${figure.judged.ratio < figure.judged.least ? ' (missed)' : ''}` : '',
  ]),
)}

Every write goal is a ratio against a baseline measured in the same run, named in each row: the embedded store's own
writes and the site's over HTTP on it against lowdb writing a JSON file per article, the site's on PostgreSQL against
the raw \`pg\` driver committing a transaction a row; writes a second alone say more of the machine than of the site.
Each HTTP row is the median of three runs of 50 connections writing as fast as they are answered, after two seconds
of the same writes that are not counted; its p99 counts each write's wait behind the 49 others. The "p99 at 2,000/s"
column is the p99 of the same writes paced evenly at 2,000 a second over the same 50 connections (each sending one
every 25 ms on a fixed timetable, latency counted from when a write was due, after a second not counted): the latency
a reader sees at that load, printed with no goal. The sites measured send notifications (email and webhook, to local
sinks); each "notifications off" row is the same comments on the same store with no notification channel, its runs
taking turns with those of the comments above it, so that the machine's changes of speed fall on both alike: what
notifications cost a write, under "Other figures".

## Other figures

${measured.lines.map((line) => `- ${line}`).join('\n')}
`;
  await writeFile(join(docs, 'benchmarks.md'), text);
}
