import { readFile } from 'node:fs/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { onServerCore } from './cores.ts';

export interface Started {
  url: string;
  pid: number;
  /** Stops the process and resolves once it has exited. */
  stop(): Promise<void>;
}

/** A process's resident memory (VmRSS, from /proc), in MiB. */
export async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Starts a server process and resolves with its address once it prints one
 * matching `pattern`; `pinned`, on the server's core (bench/cores.ts).
 */
export function startProcess(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; pinned?: boolean },
  pattern: RegExp,
  toUrl: (match: RegExpExecArray) => string,
): Promise<Started> {
  return new Promise((resolve, reject) => {
    const { command, args: commandArgs } = options.pinned ? onServerCore(args) : { command: process.execPath, args };
    const child: ChildProcess = spawn(command, commandArgs, {
      cwd: options.cwd,
      // A stopped site closes at once: the bench has no proxy to drain (DRAIN_SECONDS, README).
      env: { ...process.env, DRAIN_SECONDS: '0', ...options.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let started = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      // Once started, its output (an access line per request) is read and dropped: the pipe must not fill, nor memory grow.
      if (started) return;
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        started = true;
        resolve({
          url: toUrl(match),
          pid: child.pid ?? 0,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) {
                done();
                return;
              }
              child.once('exit', () => {
                done();
              });
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      reject(new Error(`${args.join(' ')} exited (${code}): ${output}`));
    });
  });
}

/** One of the bench's bare servers (`bare-server.mjs`, `bare-file-server.mjs`), given `file`, on the server's core. */
export function startBareServer(root: string, script: string, file: string): Promise<Started> {
  return startProcess(
    [`bench/${script}`, file],
    { cwd: root, pinned: true },
    /listening on (\d+)/,
    (m) => `http://127.0.0.1:${m[1] ?? ''}`,
  );
}

/** Every site the bench starts runs as in production: one access line a request (LOG_LEVEL info) and metrics served. */
export const PRODUCTION_OBSERVABILITY = { LOG_LEVEL: 'info', METRICS_PORT: '0' } as const;
