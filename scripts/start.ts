import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { captchaSettings, listenHost, listenPort, siteUrl } from '../src/server/settings/environment.ts';
import { securityHeaders } from '../src/server/http/security-headers.ts';
import { createFrontServer, type ApiDispatcher, type AstroApp } from '../src/server/front/server.ts';
import { BUILD_MARK, buildIsStale } from './build-site.ts';

/** Set in the server's own image, so that it neither builds nor starts itself again. */
const SERVING = 'LONGHAND_SERVER_PROCESS';
/**
 * Young-generation semi-spaces of 8 MiB: V8's default on a machine with much
 * memory lets tens of MiB of garbage sit between scavenges, held as resident
 * memory for good. Two malloc arenas (above) keep native buffers from
 * spreading over one arena per thread.
 */
const SERVER_V8_FLAGS = ['--max-semi-space-size=8'];

const root = process.cwd();
if (process.env[SERVING] !== '1') {
  if (await buildIsStale(root)) {
    console.log('Building the site first: dist/ is missing or older than the sources.');
    // In a process of its own: the server then starts without the build's memory (Astro, Vite, the bundler) in its heap.
    const build = spawn(process.execPath, [fileURLToPath(new URL('build-site.ts', import.meta.url))], { cwd: root, stdio: 'inherit' });
    const [code] = (await once(build, 'exit')) as [number | null];
    if (code !== 0) process.exit(1);
  }
  // The server runs in a fresh image of this process (same pid, same stdio) with its memory settings; where
  // there is no execve (Windows), in this one as it is.
  process.execve?.(process.execPath, [process.execPath, ...SERVER_V8_FLAGS, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX: process.env['MALLOC_ARENA_MAX'] ?? '2',
    [SERVING]: '1',
  });
}

const { app, api, revisionOf, startUp, closeRuntime } = (await import(pathToFileURL(join(root, BUILD_MARK)).href)) as {
  app: AstroApp;
  api: ApiDispatcher;
  revisionOf: (topic: string) => Promise<string>;
  startUp: () => Promise<void>;
  closeRuntime: () => Promise<void>;
};
try {
  await startUp();
} catch (error) {
  console.error(`The server cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const { siteKey, secret } = captchaSettings();
const server = await createFrontServer({
  app,
  api,
  revisionOf,
  headers: securityHeaders(siteKey !== undefined || secret !== undefined),
  clientDir: join(root, 'dist', 'client'),
  site: siteUrl(),
});
server.listen(listenPort(), listenHost(), () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : listenPort();
  console.log(`Serving ${siteUrl()} on http://${listenHost()}:${port}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => {
      closeRuntime().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('[store] the store could not be closed cleanly; its journal is replayed at the next start:', error);
          process.exit(1);
        },
      );
    });
  });
}
