import { spawn } from 'node:child_process';
import { PREPARED_SITE } from './site.ts';

/** Runs the owner's data tool (npm run data) on the store that `env` names (DATABASE_URL), as the owner would. */
export function dataTool(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/data.ts', ...args], { cwd: PREPARED_SITE, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      resolve({ code, output });
    });
  });
}
