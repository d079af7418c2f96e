import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Where the read bench runs each side, on a machine of two cores or more with
 * `taskset` (util-linux): the server measured (the site or the bare server,
 * alike) on the first core, the load generator (this process) on the second.
 * Left to the scheduler, the two sometimes share a core for a whole run, and
 * the same build measured twice can differ widely.
 */
function pinningAvailable(): boolean {
  if (availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const PINNED = pinningAvailable();

/** The command that starts a server on the server's core: `taskset -c 0 node …`, or `node …` where nothing is pinned. */
export function onServerCore(args: string[]): { command: string; args: string[] } {
  return PINNED ? { command: 'taskset', args: ['-c', '0', process.execPath, ...args] } : { command: process.execPath, args };
}

/** A process's CPU affinity as taskset lists it (`0,1`, `0-3`). */
function affinityOf(pid: number): string {
  const answer = execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' });
  return answer.trim().split(': ').at(-1) ?? '';
}

/**
 * Runs `body` with this process (the load generator, every thread of it) on
 * the second core, then gives it back the cores it had: read before, since
 * once pinned the process sees one core only (availableParallelism too).
 */
export async function onLoadCore<T>(body: () => Promise<T>): Promise<T> {
  if (!PINNED) return body();
  const cores = affinityOf(process.pid);
  execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  try {
    return await body();
  } finally {
    execFileSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' });
  }
}
