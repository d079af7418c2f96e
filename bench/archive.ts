// npm run bench, the archive: a publication of ARTICLES articles in every language, generated in a temporary copy of
// the project (nothing generated is kept), against a stock Astro 7 blog building the same Markdown files, and against
// the site with its own articles; then the build a writer's change costs (one new article, one changed English one,
// one changed component of one page) against the cold build. Prints each figure next to its baseline and exits 1 when
// a goal is missed.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIsStale, buildSite } from '../scripts/build-site.ts';
import { FileManifest } from '../src/server/front/file-manifest.ts';
import { load } from './load.ts';
import { PRODUCTION_OBSERVABILITY, residentMiB, startBareServer, type Started, startProcess } from './processes.ts';
import { measured } from './report.ts';

const ROOT = process.cwd();
const ARTICLES = Number(process.env['BENCH_ARCHIVE_ARTICLES'] ?? 1000);
/** The article copied into every generated one, in all its languages. */
const TEMPLATE = 'a-small-web-server';
const READS = 1000;
const GOALS = {
  buildRatio: 1.5,
  changeOverCold: 0.1,
  /** A change to one page's component: the site is still bundled, its content synced and every page written. */
  componentChangeOverCold: 0.6,
  memoryMiB: 200,
  memoryOverSmall: 1.15,
  diskReadRatio: 0.5,
};
/** A component of the cities page alone (src/pages/[...lang]/cities.astro). */
const ONE_PAGE_COMPONENT = 'src/components/CitySubmissionForm.astro';
const PROJECT_FILES = ['src', 'content', 'public', 'scripts', 'migrations', 'astro.config.mjs', 'package.json', 'tsconfig.json'];

/**
 * A copy of the project with ARTICLES more articles, each the template under
 * another slug, title and date, and code blocks of its own (a line naming the
 * article at the top of each): as in a real archive, an article's code is its
 * own, the same in all its languages.
 */
async function archiveCopy(scratch: string): Promise<string> {
  const dir = join(scratch, 'archive');
  await mkdir(dir);
  for (const file of PROJECT_FILES) await cp(join(ROOT, file), join(dir, file), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (let index = 1; index <= ARTICLES; index += 1) await addArticle(dir, index);
  return dir;
}

function archiveSlug(index: number): string {
  return `archive-${String(index).padStart(4, '0')}`;
}

/** Writes generated article number `index` in every language of the template. */
async function addArticle(dir: string, index: number): Promise<void> {
  const slug = archiveSlug(index);
  const date = new Date(Date.UTC(2016, 0, 1) + index * 86_400_000).toISOString().slice(0, 10);
  const template = join(ROOT, 'content', 'articles', TEMPLATE);
  await mkdir(join(dir, 'content', 'articles', slug));
  for (const file of await readdir(template)) {
    const text = await readFile(join(template, file), 'utf8');
    const generated = text
      .replace(/^title: "(.*)"$/m, `title: "$1 (${index})"`)
      .replace(/^date: .*$/m, `date: ${date}`)
      .replace(/^(```\w+\n)/gm, `$1// ${slug}\n`);
    await writeFile(join(dir, 'content', 'articles', slug, file), generated);
  }
}

/**
 * A stock Astro 7 blog: one content collection with a glob loader over the
 * same Markdown files, one page per file, nothing else (but a content cache
 * of its own, see below).
 */
async function stockBlog(scratch: string, articles: string): Promise<string> {
  const dir = join(scratch, 'stock');
  await mkdir(join(dir, 'src', 'pages'), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  await cp(articles, join(dir, 'articles'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'stock-blog', private: true, type: 'module' }));
  // Its content cache in its own folder, cold as the site's is: by default it would be node_modules/.astro, which every
  // copy shares, and a second run would find the first one's there.
  await writeFile(
    join(dir, 'astro.config.mjs'),
    "import { defineConfig } from 'astro/config';\nexport default defineConfig({ cacheDir: './.cache/astro' });\n",
  );
  await writeFile(
    join(dir, 'src', 'content.config.ts'),
    "import { defineCollection } from 'astro:content';\nimport { glob } from 'astro/loaders';\n" +
      "export const collections = { blog: defineCollection({ loader: glob({ base: './articles', pattern: '**/*.{md,mdx}' }) }) };\n",
  );
  await writeFile(
    join(dir, 'src', 'pages', '[...id].astro'),
    `---
import { getCollection, render } from 'astro:content';
export async function getStaticPaths() {
  return (await getCollection('blog')).map((entry) => ({ params: { id: entry.id }, props: { entry } }));
}
const { entry } = Astro.props;
const { Content } = await render(entry);
---
<html lang="en"><head><meta charset="utf-8" /><title>{entry.data.title}</title></head><body><h1>{entry.data.title}</h1><Content /></body></html>
`,
  );
  return dir;
}

/** Seconds a command takes in `cwd`; rejects when it fails. */
async function timed(cwd: string, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CI: 'true' }, stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${args.join(' ')} failed in ${cwd} (${code})`);
  return (performance.now() - started) / 1000;
}

/** The stores of the sites started, removed with the scratch folder. */
const stores: string[] = [];

/** The site built in `dir`, its store in a fresh temporary folder. */
async function startSite(dir: string, env: Record<string, string> = {}): Promise<Started> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-archive-store-'));
  stores.push(dataDir);
  return startProcess(
    ['scripts/start.ts'],
    { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...PRODUCTION_OBSERVABILITY, ...env }, pinned: true },
    /on (http:\/\/[\d.]+:\d+)/,
    (m) => m[1] ?? '',
  );
}

/** Every page and twin path the build wrote, from its manifest. */
async function pagePaths(dir: string): Promise<string[]> {
  const manifest = await FileManifest.read(join(dir, 'dist', 'client'));
  return [...manifest.entries()]
    .map(({ file }) => file)
    .filter((file) => /(^|\/)index\.html$|\.md$/.test(file) && !file.includes('not-found'))
    .map((file) => `/${file.replace(/(^|\/)index\.html$/, '')}`);
}

/** The site's resident memory after READS reads of random pages and twins (a fixed sequence, so both sites get alike). */
async function memoryAfterReads(dir: string): Promise<number> {
  const paths = await pagePaths(dir);
  const site = await startSite(dir);
  try {
    let seed = 2026;
    for (let index = 0; index < READS; index += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const answer = await fetch(`${site.url}${paths[seed % paths.length] ?? '/'}`, { headers: { 'Accept-Encoding': 'br' } });
      await answer.arrayBuffer();
    }
    return await residentMiB(site.pid);
  } finally {
    await site.stop();
  }
}

/** Requests a second for one page read from disk each time (nothing held in memory), against a bare server reading the same file. */
async function diskReads(dir: string): Promise<{ site: number; bare: number }> {
  const path = `/articles/${archiveSlug(Math.ceil(ARTICLES / 2))}`;
  const file = join(dir, 'dist', 'client', path, 'index.html');
  const site = await startSite(dir, { STATIC_CACHE_MIB: '0' });
  const bare = await startBareServer(ROOT, 'bare-file-server.mjs', file);
  try {
    const options = { seconds: 3, connections: 20 };
    await load(`${site.url}${path}`, { seconds: 1, connections: 20 });
    await load(`${bare.url}${path}`, { seconds: 1, connections: 20 });
    const measuredSite = await load(`${site.url}${path}`, options);
    const measuredBare = await load(`${bare.url}${path}`, options);
    if (measuredSite.errors + measuredSite.non2xx > 0) throw new Error(`the site failed reading ${path} from disk`);
    return { site: measuredSite.requestsPerSecond, bare: measuredBare.requestsPerSecond };
  } finally {
    await Promise.all([site.stop(), bare.stop()]);
  }
}

/** A writer's typo fix: one sentence more at the end of a file. */
async function appendSentence(file: string): Promise<void> {
  await writeFile(file, `${await readFile(file, 'utf8')}\nOne sentence more.\n`);
}

/** Gives the first element of a component an attribute more. */
async function changeComponent(file: string): Promise<void> {
  const source = await readFile(file, 'utf8');
  const changed = source.replace(/<(form|div|section)\b/, '<$1 data-changed');
  if (changed === source) throw new Error(`${file} has no element the bench knows to change`);
  await writeFile(file, changed);
}

function verdict(met: boolean): string {
  return met ? 'goal met' : 'goal NOT met';
}

function report(line: string): void {
  console.log(line);
  measured.lines.push(line);
}

/** Measures the archive and prints each figure; resolves with the number of goals missed. */
export async function benchArchive(): Promise<number> {
  const scratch = await mkdtemp(join(tmpdir(), 'bench-archive-'));
  let missed = 0;
  try {
    const archive = await archiveCopy(scratch);
    const files = ARTICLES * (await readdir(join(ROOT, 'content', 'articles', TEMPLATE))).length;
    report(`The archive: ${ARTICLES} generated articles in every language (${files} Markdown files) beside the site's own:`);
    const stock = await stockBlog(scratch, join(archive, 'content', 'articles'));
    const stockSeconds = await timed(stock, [join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build']);
    const buildSeconds = await timed(archive, ['scripts/build-site.ts']);
    const buildRatio = buildSeconds / stockSeconds;
    missed += buildRatio <= GOALS.buildRatio ? 0 : 1;
    report(
      `build: ${buildSeconds.toFixed(1)} s, a stock Astro 7 blog of the same files ${stockSeconds.toFixed(1)} s: ${buildRatio.toFixed(2)}× (goal: at most ${GOALS.buildRatio}×, ${verdict(buildRatio <= GOALS.buildRatio)})`,
    );
    const changes: [string, () => Promise<void>, number][] = [
      ['one new article in every language', () => addArticle(archive, ARTICLES + 1), GOALS.changeOverCold],
      [
        'one changed English article',
        () => appendSentence(join(archive, 'content', 'articles', archiveSlug(Math.ceil(ARTICLES / 3)), 'en.md')),
        GOALS.changeOverCold,
      ],
      ['a changed component of one page', () => changeComponent(join(archive, ONE_PAGE_COMPONENT)), GOALS.componentChangeOverCold],
    ];
    for (const [change, make, goal] of changes) {
      await make();
      const seconds = await timed(archive, ['scripts/build-site.ts']);
      const met = seconds <= buildSeconds * goal;
      missed += met ? 0 : 1;
      report(
        `build after ${change}: ${seconds.toFixed(1)} s, ${((seconds / buildSeconds) * 100).toFixed(0)} % of the cold build (goal: at most ${goal * 100} %, ${verdict(met)})`,
      );
    }
    const archiveMiB = await memoryAfterReads(archive);
    const smallMiB = await memoryAfterReads(ROOT);
    const memoryMet = archiveMiB <= GOALS.memoryMiB && archiveMiB <= smallMiB * GOALS.memoryOverSmall;
    missed += memoryMet ? 0 : 1;
    report(
      `memory after ${READS} random page and twin reads: ${archiveMiB.toFixed(0)} MiB, the site with its own articles ${smallMiB.toFixed(0)} MiB: ${(archiveMiB / smallMiB).toFixed(2)}× (goal: at most ${GOALS.memoryMiB} MiB and ${GOALS.memoryOverSmall}×, ${verdict(memoryMet)})`,
    );
    const disk = await diskReads(archive);
    const diskRatio = disk.site / disk.bare;
    missed += diskRatio >= GOALS.diskReadRatio ? 0 : 1;
    report(
      `a page read from disk: ${Math.round(disk.site)} req/s, a bare node:http server reading the same file ${Math.round(disk.bare)} req/s: ${diskRatio.toFixed(2)}× (goal: at least ${GOALS.diskReadRatio}×, ${verdict(diskRatio >= GOALS.diskReadRatio)})`,
    );
  } finally {
    for (const folder of [scratch, ...stores.splice(0)]) await rm(folder, { recursive: true, force: true });
  }
  return missed;
}

if (import.meta.main) {
  if (await buildIsStale(ROOT)) await buildSite(ROOT);
  if ((await benchArchive()) > 0) process.exitCode = 1;
}
