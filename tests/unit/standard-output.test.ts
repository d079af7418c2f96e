import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const MODULE = new URL('../../src/server/observability/standard-output.ts', import.meta.url).href;
const BLOCK = 32 * 1024;

/**
 * A process that writes `blocks` blocks to its standard output through
 * standardOutput(waiting), each filled with its number's last byte, asks for
 * what waits to be written (waiting up to `patienceMs` for the reader, as
 * the logger does at exit), says `written` on stderr and exits at once.
 */
function writer(blocks: number, waiting: number, stdout: 'pipe' | number, patienceMs = 0): ReturnType<typeof spawn> {
  const script = `
    import { standardOutput } from ${JSON.stringify(MODULE)};
    const out = standardOutput(${waiting});
    for (let n = 0; n < ${blocks}; n++) out.write(Buffer.alloc(${BLOCK}, n % 256));
    out.writeWaiting(${patienceMs});
    process.stderr.write('written');
    process.exit(0);`;
  return spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', stdout, 'pipe'] });
}

/** Whether `bytes` are the writer's first blocks, whole and in order. */
function firstBlocks(bytes: Buffer): boolean {
  if (bytes.length % BLOCK !== 0) return false;
  for (let offset = 0; offset < bytes.length; offset += BLOCK) {
    const n = (offset / BLOCK) % 256;
    if (bytes[offset] !== n || bytes[offset + BLOCK - 1] !== n) return false;
  }
  return true;
}

async function exited(child: ReturnType<typeof spawn>): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stderr };
}

test('a pipe read as it fills gets every block, whole and in order, what waited written before exit', async () => {
  const child = writer(300, 64 * 1024 * 1024, 'pipe', 30_000);
  const read: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => read.push(chunk));
  const { code, stderr } = await exited(child);
  assert.equal(code, 0);
  assert.equal(stderr, 'written');
  const bytes = Buffer.concat(read);
  assert.equal(bytes.length, 300 * BLOCK);
  assert.ok(firstBlocks(bytes));
});

test('a pipe nobody reads holds the writer for nothing: past what may wait, blocks are dropped', { timeout: 60_000 }, async () => {
  // 64 MiB into a pipe of 64 KiB that is read only once the writer has exited: a blocking write would never return.
  const waiting = 1024 * 1024;
  const child = writer(2048, waiting, 'pipe', 200);
  const { code, stderr } = await exited(child);
  assert.equal(stderr, 'written');
  assert.equal(code, 0);
  const read: Buffer[] = [];
  for await (const chunk of child.stdout ?? []) read.push(chunk as Buffer);
  const bytes = Buffer.concat(read);
  assert.ok(bytes.length < 4 * waiting, `${bytes.length} bytes arrived`);
  assert.ok(firstBlocks(bytes), 'what arrived is the first blocks, whole');
});

test('a file gets every block, written before the process exits', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'standard-output-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'out.log');
  const file = await open(path, 'w');
  const child = writer(100, 64 * 1024 * 1024, file.fd);
  const { code, stderr } = await exited(child);
  await file.close();
  assert.equal(code, 0);
  assert.equal(stderr, 'written');
  const bytes = await readFile(path);
  assert.equal(bytes.length, 100 * BLOCK);
  assert.ok(firstBlocks(bytes));
});
