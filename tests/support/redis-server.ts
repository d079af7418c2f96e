import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './ports.ts';

/** A Redis server of the test's own (the machine's shared one is never stopped), to stop and start again on its port. */
export interface OwnRedis {
  url: string;
  start(): Promise<void>;
  /** Ends it at once (SIGKILL), as a crash or a lost host would. */
  stop(): Promise<void>;
}

/** A Redis on a free loopback port, not started yet; nothing is kept on disk. */
export async function ownRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let redis: ChildProcess | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'pipe' });
      let output = '';
      redis.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const deadline = Date.now() + 10_000;
      while (!output.includes('Ready to accept connections')) {
        if (Date.now() > deadline) throw new Error(`redis-server did not start:\n${output}`);
        await new Promise((done) => setTimeout(done, 20));
      }
    },
    async stop() {
      if (!redis || redis.exitCode !== null || redis.signalCode !== null) return;
      const exited = once(redis, 'exit');
      redis.kill('SIGKILL');
      await exited;
    },
  };
}
