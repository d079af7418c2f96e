import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsStale } from './build-site.ts';

/** The server's own process: the build's JavaScript and nothing else. */
const SERVE = fileURLToPath(new URL('serve.mjs', import.meta.url));
/**
 * Young-generation semi-spaces of 8 MiB: V8's default on a machine with much
 * memory lets far more garbage sit between scavenges, held as resident memory
 * for good. And an old generation allowed to grow to 1.6 times what was live
 * after the last full collection: left to choose, V8 grows it several times
 * over during a burst of writes, and gives little of it back once the burst
 * is over; held much closer, a burst of comments (each one kept in memory
 * with its thread) sets off a full collection, and its pause, every half
 * second.
 */
const SERVER_V8_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=60'];
/**
 * Two malloc arenas keep native buffers from spreading over one arena per
 * thread; a fixed trim threshold gives freed memory back to the system (by
 * default glibc raises the threshold after the first large free, and what
 * start-up freed stays held for good).
 */
const SERVER_MALLOC = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' };

const root = process.cwd();
if (await buildIsStale(root)) {
  console.log('Building the site first: dist/ is missing or older than the sources.');
  // In a process of its own: the server then starts without the build's memory (Astro, Vite, the bundler) in its heap.
  const build = spawn(process.execPath, [fileURLToPath(new URL('build-site.ts', import.meta.url))], { cwd: root, stdio: 'inherit' });
  const [code] = (await once(build, 'exit')) as [number | null];
  if (code !== 0) process.exit(1);
}
// The server runs in a fresh image of this process (same pid, same stdio) with its memory settings; where there is
// no execve (Windows), in this one as it is.
if (process.execve) {
  process.execve(process.execPath, [process.execPath, ...SERVER_V8_FLAGS, ...process.execArgv, SERVE], {
    ...SERVER_MALLOC,
    ...process.env,
  });
} else {
  await import(pathToFileURL(SERVE).href);
}
