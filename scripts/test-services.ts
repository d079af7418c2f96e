// Private instances of Redis and PostgreSQL for `npm test` on a machine
// where none answers (scripts/with-test-services.ts): each on a free loopback
// port, its files in a temporary folder, stopped and removed after the suite.
// Nothing of the machine's own services is started, changed or stopped.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, closeSync, existsSync, fchownSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the tests look for Redis and PostgreSQL when TEST_REDIS_URL and TEST_DATABASE_URL are unset. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** A service started for the tests: where it answers, and how to stop it and remove its files. */
export interface PrivateService {
  url: string;
  /** The temporary folder that holds its files, removed by `stop`. */
  files: string;
  stop(): Promise<void>;
}

/** Whether something accepts connections at host:port within a second. */
export function answers(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 1000 }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => {
      resolve(false);
    });
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A loopback port free right now, for a server that must be started (or started again) on a port known beforehand. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (typeof address === 'object' && address) resolve(address.port);
        else reject(new Error('no free port'));
      });
    });
  });
}

/** Waits up to `seconds` for the process to accept connections on `port`; throws with what it logged when it does not, or exits. */
async function listening(child: ChildProcess, port: number, seconds: number, log: string): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await answers('127.0.0.1', port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${child.spawnfile} did not start on port ${port}:\n${readFileSync(log, 'utf8').slice(-4000)}`);
    }
    await new Promise((tick) => setTimeout(tick, 100));
  }
}

/**
 * Starts `command` with what it prints written to `log`, a file: a pipe
 * nobody reads while the suite runs would fill and stall the server.
 */
function started(command: string, args: string[], log: string, options: { uid?: number; gid?: number }): ChildProcess {
  const out = openSync(log, 'a');
  if (options.uid !== undefined) fchownSync(out, options.uid, options.gid ?? options.uid);
  try {
    return spawn(command, args, { ...options, stdio: ['ignore', out, out] });
  } finally {
    closeSync(out);
  }
}

/** Stops a child with `signal` and waits for it, then removes `dir`. */
async function stopped(child: ChildProcess, signal: NodeJS.Signals, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
}

/** A Redis that keeps nothing on disk, on a free loopback port. */
export async function privateRedis(): Promise<PrivateService> {
  const dir = await mkdtemp(join(tmpdir(), 'longhand-test-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const log = join(dir, 'redis.log');
  const child = started('redis-server', args, log, {});
  await listening(child, port, 10, log);
  return { url: `redis://127.0.0.1:${port}`, files: dir, stop: () => stopped(child, 'SIGTERM', dir) };
}

/** The newest PostgreSQL server's programs Debian installed (/usr/lib/postgresql/<version>/bin); null when none is. */
export function postgresPrograms(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const newest = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  return newest === undefined ? null : join(root, newest, 'bin');
}

/** Who the server runs as: PostgreSQL refuses root, so root runs it as the `postgres` user the package made. */
function serverUser(dir: string): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
  chownSync(dir, uid, gid);
  return { uid, gid };
}

/** A PostgreSQL cluster of its own in a temporary folder, on a free loopback port, trusting loopback, with a database `test`. */
export async function privatePostgres(): Promise<PrivateService> {
  const bin = postgresPrograms();
  if (bin === null) throw new Error('no PostgreSQL server is installed (/usr/lib/postgresql/<version>/bin)');
  const dir = await mkdtemp(join(tmpdir(), 'longhand-test-postgres-'));
  const user = serverUser(dir);
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'], { ...user, stdio: 'ignore' });
  const port = await freePort();
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'];
  const log = join(dir, 'postgres.log');
  const child = started(join(bin, 'postgres'), args, log, user);
  await listening(child, port, 30, log);
  execFileSync(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'test'], { ...user, stdio: 'ignore' });
  // SIGINT: PostgreSQL's fast shutdown, which ends the sessions still open.
  return { url: `postgres://postgres@127.0.0.1:${port}/test`, files: dir, stop: () => stopped(child, 'SIGINT', dir) };
}
