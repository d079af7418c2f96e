import { join } from 'node:path';
import { apiServices } from '../../site/api-services.ts';
import { dispatchApi } from '../api/dispatch.ts';
import { readQueryParameters } from '../api/registry.ts';
import { CITY_INDEX_PATH, checkCityIndexFile } from '../cities/index-file.ts';
import { createFrontServer, type AstroApp } from '../front/server.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { closeRuntime, runtime } from '../runtime/runtime.ts';
import { captchaSettings, listenHost, listenPort, siteUrl, staticCacheBytes } from '../settings/environment.ts';
import type { RevisionTopic } from '../store/types.ts';

/** The store's current revision of a topic a render named, for the front server's kept renders; '' for no such topic. */
async function revisionOf(topic: string): Promise<string> {
  const known = topic === 'topic-requests' || topic.startsWith('thread:');
  return known ? (await runtime()).store.revision(topic as RevisionTopic) : '';
}

/**
 * The site's server, as `npm start` runs it from the build: the runtime
 * opened first (a corrupt store, a bad setting or a missing city index stops
 * start-up with its message instead of failing a request), then the front
 * server on the configured address; SIGINT and SIGTERM close it and the store.
 * The city index itself (about 40 MiB) is read at the first city search or
 * submission: a site whose readers never search cities never holds it.
 */
export async function serve(app: AstroApp, root: string): Promise<void> {
  let fileCacheBytes = 0;
  try {
    await runtime();
    checkCityIndexFile(CITY_INDEX_PATH);
    fileCacheBytes = staticCacheBytes();
  } catch (error) {
    console.error(`The server cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const { siteKey, secret } = captchaSettings();
  const server = await createFrontServer({
    app,
    api: (request, socketAddress, connection) => dispatchApi({ request, socketAddress, connection, services: apiServices }),
    apiQueryParameters: (pathname) => readQueryParameters(pathname),
    revisionOf,
    headers: securityHeaders(siteKey !== undefined || secret !== undefined),
    clientDir: join(root, 'dist', 'client'),
    fileCacheBytes,
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
}
