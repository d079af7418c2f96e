import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVED_SETTINGS_PRELOAD, startEnvironment } from './prepared-build.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'tests', '.fixtures');
/** The site every HTTP and browser test serves: the real content plus the fixtures of prepare-site.ts. */
export const PREPARED_SITE = join(FIXTURES, 'site');

const PROJECT_FILES = ['src', 'content', 'public', 'scripts', 'migrations', 'astro.config.mjs', 'package.json', 'tsconfig.json'];

/** A copy of the project in its own folder, sharing node_modules, to build and change freely. */
export async function copyProject(name: string): Promise<string> {
  const dir = join(FIXTURES, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const file of PROJECT_FILES) await cp(join(ROOT, file), join(dir, file), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/**
 * A copy of the prepared site, built, in a temporary folder of its own: for
 * tests that change its files under the server, or start it with other
 * build-time settings (which rebuild it there, never under the other tests).
 * Files keep their times, so that the build's manifest still describes them;
 * the build is marked newer than the copied folders, so it stays current.
 */
export async function copyOfPreparedSite(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'longhand-site-'));
  madeFolders.push(dir);
  await copyPreparedSiteTo(dir);
  return dir;
}

/** The prepared site copied into `dir`, as copyOfPreparedSite copies it; the folder is the caller's to remove. */
export async function copyPreparedSiteTo(dir: string): Promise<void> {
  await cp(PREPARED_SITE, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  const now = new Date();
  await utimes(join(dir, 'dist', 'server', 'entry.mjs'), now, now);
}

/** Writes files into a copy: `{ 'content/articles/x/en.md': '…' }`. */
export async function addFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/**
 * Runs the real build of a copy, with `env` besides the tests' and `args`
 * (`--full`); resolves with its exit code and everything it printed.
 */
export function build(
  dir: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/build-site.ts', ...args], { cwd: dir, env: { ...process.env, CI: 'true', ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      resolve({ code, output });
    });
  });
}

export interface RunningSite {
  url: string;
  /** The server's own store folder: a fresh temporary one unless DATA_DIR was given. */
  dataDir: string;
  /** The server's process id, to read its memory. */
  pid: number;
  /** Everything the server printed so far. */
  output(): string;
  /** Resolves once the server has printed something matching `pattern`; rejects after a few seconds with what it printed. */
  printed(pattern: RegExp): Promise<void>;
  stop(): Promise<void>;
  /** Ends the server at once, as a crash would (SIGKILL). */
  kill(): Promise<void>;
  /** Resolves once the server has exited, sending it nothing. */
  exited(): Promise<void>;
}

/** The folders made for this test process (stores, copies of the site), removed when it exits. */
const madeFolders: string[] = [];
process.once('exit', () => {
  for (const made of madeFolders) rmSync(made, { recursive: true, force: true });
});

async function newDataDir(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'longhand-data-'));
  madeFolders.push(made);
  return made;
}

/** A server's log arrives through a pipe, after the answer it wrote about may have: poll it, within a deadline. */
async function printed(pattern: RegExp, output: () => string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(output())) {
    if (Date.now() > deadline) throw new Error(`the server did not print ${String(pattern)} within ${timeoutMs} ms:\n${output()}`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

/**
 * What a test server's `npm start` preloads: the clock TEST_CLOCK sets, and
 * the server's own values of the prepared build's settings (prepared-build.ts).
 */
export const TEST_PRELOADS = ['--import', join(ROOT, 'tests/support/clock.ts'), '--import', SERVED_SETTINGS_PRELOAD];

/**
 * How long a server may take to listen: `npm start` builds first when the
 * copy has no build, which takes about a minute on a busy 2-core machine.
 */
const START_TIMEOUT_MS = 180_000;
/** What `npm start` prints when it finds the build stale (scripts/start.ts). */
const REBUILD_NOTICE = 'Building the site first';

/**
 * Starts `npm start`'s server on a free port, as a user would, and resolves
 * once it listens, or rejects with its output when it exits or does not
 * listen in time. `npm start` sees the prepared build's settings, the server
 * `env`'s (prepared-build.ts). `TEST_CLOCK` in `env` moves the server's
 * clock. A stop drains for no time unless `env` sets DRAIN_SECONDS.
 */
export async function startSite(dir: string, env: Record<string, string> = {}): Promise<RunningSite> {
  const dataDir = env['DATA_DIR'] ?? (await newDataDir());
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TEST_PRELOADS, 'scripts/start.ts'], {
      cwd: dir,
      env: startEnvironment({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DRAIN_SECONDS: '0', ...env }),
    });
    const ended = (signal?: NodeJS.Signals) => () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          done();
          return;
        }
        child.once('exit', () => {
          done();
        });
        if (signal) child.kill(signal);
      });
    let output = '';
    const tooSlow = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not listen within ${START_TIMEOUT_MS / 1000} s:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (dir === PREPARED_SITE && output.includes(REBUILD_NOTICE)) {
        clearTimeout(tooSlow);
        child.kill('SIGKILL');
        reject(
          new Error(
            `the prepared site is being built again, in place, under every test that serves it: start a copy (copyOfPreparedSite) with other build settings:\n${output}`,
          ),
        );
        return;
      }
      const match = /on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(tooSlow);
        child.stdout.off('data', onData);
        child.stdout.on('data', (more: Buffer) => (output += more.toString()));
        resolve({
          url: match[1],
          pid: child.pid ?? 0,
          dataDir,
          output: () => output,
          printed: (pattern) => printed(pattern, () => output),
          stop: ended('SIGTERM'),
          kill: ended('SIGKILL'),
          exited: ended(),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(tooSlow);
      reject(new Error(`the server exited (${code}) before listening:\n${output}`));
    });
  });
}
