import type { Server } from 'node:http';
import { constants } from 'node:os';
import { join } from 'node:path';
import { apiServices } from '../../site/api-services.ts';
import { dispatchApi } from '../api/dispatch.ts';
import { operationIdAt, readQueryParameters } from '../api/registry.ts';
import { CONTENT_DIR, openBuiltContent, serveBuiltContent, type BuiltContent } from '../articles/built-content.ts';
import { CITY_INDEX_PATH, checkCityIndexFile } from '../cities/index-file.ts';
import { createFrontServer, type AstroApp } from '../front/server.ts';
import type { McpEndpoint } from '../mcp/endpoint.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { serveModeration } from '../owner/moderation-pages.ts';
import { closeRuntime, runtime } from '../runtime/runtime.ts';
import { log, type Logger } from '../observability/log.ts';
import { health, type Health } from '../health/health.ts';
import { startNotifications } from '../notifications/start.ts';
import { watchAppearances } from '../appearances/watch.ts';
import { newsletterConsumer } from '../newsletter/consumer.ts';
import type { startNewsletter } from '../newsletter/newsletter.ts';
import type { RunningFederation } from '../federation/federation.ts';
import { formResponses } from '../spam/form-responses.ts';
import { serveDesk } from '../owner/desk-server.ts';
import {
  deskListen,
  metricsListen,
  newsletterSettings,
  notificationSettings,
  setting,
  settingsInEffect,
  settingsOf,
} from '../settings/environment.ts';
import type { RevisionTopic } from '../store/types.ts';
import type { CallerSource } from '../identity/caller.ts';

/** How long a stopping server lets requests in flight go on once its listener is closed, before it cuts their connections. */
const REQUEST_GRACE_MS = 5000;

/** The MCP server, its SDK loaded at the first request to `/mcp`: a site that no agent asks holds none of it. */
function lazyMcpEndpoint(): McpEndpoint {
  let endpoint: Promise<McpEndpoint> | undefined;
  return async (request, caller) => {
    endpoint ??= import('../mcp/endpoint.ts').then(({ mcpEndpoint }) => mcpEndpoint(apiServices));
    return (await endpoint)(request, caller);
  };
}
/** The store's current revision of a topic a render named, for the front server's kept renders; '' for no such topic. */
async function revisionOf(topic: string): Promise<string> {
  const known = topic === 'topic-requests' || topic === 'threads' || topic.startsWith('thread:');
  return known ? (await runtime()).store.revision(topic as RevisionTopic) : '';
}

/**
 * The site's server, as `npm start` runs it from the build: the runtime
 * opened first (a corrupt store, a bad setting or a missing city index stops
 * start-up with its message instead of failing a request), then the front
 * server on the configured address. SIGINT and SIGTERM stop it gracefully:
 * `/readyz` turns 503 at once while everything else is still served for
 * DRAIN_SECONDS, so that a proxy polling it sends nothing new; then the
 * listener closes, requests in flight finish (within REQUEST_GRACE_MS) while
 * the notification sender stops (sender.ts: a few seconds at most), and the
 * store is closed. A second
 * signal, at any point of that, ends the process at once.
 * The city index itself, every city's names in every script, is read at the
 * first city search or submission: a site whose readers never search cities
 * never holds it.
 */
export async function serve(app: AstroApp, root: string): Promise<void> {
  let logger: Logger;
  try {
    logger = log();
  } catch (error) {
    // The logger is what the settings got wrong: nothing else can say so.
    console.error(`The server cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  let started: Started;
  try {
    started = await startServices(logger, root);
  } catch (error) {
    logger.error(`The server cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const { opened } = started;
  // Named for what they are, never by address: the response is public.
  const checks = health([
    { name: 'store', ping: () => opened.store.ping() },
    ...(setting('REDIS_URL') ? [{ name: 'redis', ping: () => opened.quotas.ping() }] : []),
  ]);
  const server = await frontServer(app, root, started, checks.probes);
  const { PORT: listenPort, HOST: host } = settingsOf(['PORT', 'HOST']);
  server.listen(listenPort, host, () => {
    logger.announce(`Serving ${opened.site} on http://${host}:${portOf(server, listenPort)}`);
  });
  stopOnSignals(
    logger,
    () => {
      checks.drain();
    },
    started.drainMs,
    () => {
      close(logger, server, started);
    },
  );
}

/** What start-up opened besides the front server, for it and for the close. */
interface Started {
  opened: Awaited<ReturnType<typeof runtime>>;
  content: BuiltContent;
  drainMs: number;
  metrics: Server | undefined;
  desk: Server | undefined;
  stopNotifications: (() => Promise<void>) | null;
  stopAppearances: () => Promise<void>;
  /** The newsletter, when NEWSLETTER is on. */
  newsletter: Awaited<ReturnType<typeof startNewsletter>> | undefined;
  /** The federation, when FEDERATION is on. */
  federation: RunningFederation | undefined;
}

/** The port a listener got: the one asked for, or the system's pick for 0. */
function portOf(server: Server, asked: number): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : asked;
}

/** The runtime, the built content, the notification sender and the desk and metrics listeners; throws what stops start-up. */
async function startServices(logger: Logger, root: string): Promise<Started> {
  // Every setting is read here first, so that any wrong one stops start-up, each named.
  logger.info('settings in effect', settingsInEffect());
  const opened = await runtime();
  if (setting('FEDERATION_ALLOW_PRIVATE_ADDRESSES') === '1')
    logger.warn(
      '[settings] FEDERATION_ALLOW_PRIVATE_ADDRESSES=1: outbound federation may reach loopback and private addresses, ' +
        "this server's own network included. For tests on one machine only.",
    );
  checkCityIndexFile(CITY_INDEX_PATH);
  const content = openBuiltContent(join(root, CONTENT_DIR), opened.site);
  serveBuiltContent(content);
  // Notifications go out from the outbox, beside the requests: a write never waits for one.
  const stopNotifications = await startNotifications(opened.store, opened.site, opened.keys.moderationLink, notificationSettings());
  const newsletterOn = newsletterSettings();
  const siteName = content.page('home', 'en')?.title ?? new URL(opened.site).hostname;
  // The newsletter's modules (Markdown to HTML, its mailer) and Fedify below are loaded only for a site that uses them.
  const newsletter = newsletterOn
    ? await (await import('../newsletter/newsletter.ts')).startNewsletter(opened, content.catalog, siteName, newsletterOn)
    : undefined;
  const federation =
    setting('FEDERATION') === 'on'
      ? (await import('../federation/federation.ts')).startFederation({ store: opened.store, content, site: opened.site, writes: opened })
      : undefined;
  // Watched whether or not anything consumes appearances yet, so that the baseline is taken at the first start.
  const consumers = [
    ...(newsletter ? [newsletterConsumer(opened.store, content.catalog)] : []),
    ...(federation ? [federation.consumer] : []),
  ];
  const stopAppearances = watchAppearances(opened.store, content.catalog, consumers);
  const deskAt = deskListen();
  let desk: Server | undefined;
  if (deskAt) {
    desk = await serveDesk({ store: opened.store, site: opened.site, ...deskAt, origin: setting('OWNER_ORIGIN') });
    // Not worded like the listening line ('… on http://…'), which start-up scripts look for.
    logger.info(`The owner's desk at http://${deskAt.host}:${portOf(desk, deskAt.port)}/`);
  }
  const metricsAt = metricsListen();
  let metrics: Server | undefined;
  // prom-client is loaded only for a site that serves metrics.
  if (metricsAt) {
    metrics = await (await import('../observability/metrics-server.ts')).serveMetrics(metricsAt);
    logger.info(`Metrics at http://${metricsAt.host}:${portOf(metrics, metricsAt.port)}/metrics`);
  }
  return {
    opened,
    content,
    drainMs: setting('DRAIN_SECONDS') * 1000,
    metrics,
    desk,
    stopNotifications,
    stopAppearances,
    newsletter,
    federation,
  };
}

async function frontServer(
  app: AstroApp,
  root: string,
  { opened, content, newsletter, federation }: Started,
  probes: Health['probes'],
): Promise<Server> {
  const serveNewsletter = newsletter ? (await import('../newsletter/newsletter.ts')).serveNewsletter : undefined;
  return createFrontServer({
    app,
    api: (request, socketAddress, connection) => dispatchApi({ request, socketAddress, connection, services: apiServices }),
    apiQueryParameters: (pathname) => readQueryParameters(pathname),
    revisionOf,
    operationOf: operationIdAt,
    mcp: lazyMcpEndpoint(),
    moderation: (request) => serveModeration(request, { store: opened.store, key: opened.keys.moderationLink, site: opened.site }),
    ...(federation ? { federation: federation.endpoint } : {}),
    ...(newsletter && serveNewsletter
      ? { newsletter: (request: Request, caller: Omit<CallerSource, 'request'>) => serveNewsletter(newsletter.newsletter, request, caller) }
      : {}),
    probes,
    formResponses: formResponses(opened),
    headers: securityHeaders(opened.captcha.provider === 'turnstile'),
    clientDir: join(root, 'dist', 'client'),
    schedule: content.catalog.scheduled,
    site: opened.site,
  });
}

/** Closes the listener, lets requests in flight finish while the sender stops, then closes the store and exits. */
function close(
  logger: Logger,
  server: Server,
  { metrics, desk, stopNotifications, stopAppearances, newsletter, federation }: Started,
): void {
  logger.info('closing: the listener takes no connection more; requests in flight finish, then notifications and the store stop');
  metrics?.close();
  desk?.close();
  desk?.closeAllConnections();
  const answered = new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  // Idle keep-alive connections would otherwise hold the close until they time out.
  server.closeIdleConnections();
  // A client that stalls mid-request would hold it for good: the close has an end.
  const cut = setTimeout(() => {
    server.closeAllConnections();
  }, REQUEST_GRACE_MS);
  // The senders stop beside the requests: what they write waits in the outbox, the newsletter's queue and the
  // federation's deliveries, for the next start.
  Promise.all([answered, stopNotifications?.(), stopAppearances(), newsletter?.stop(), federation?.stop()])
    .then(() => {
      clearTimeout(cut);
      return closeRuntime();
    })
    .then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('[store] the store could not be closed cleanly; its journal is replayed at the next start', {}, error);
        process.exit(1);
      },
    );
}

/** The first SIGINT or SIGTERM drains for `drainMs`, then closes; a second one exits at once. */
function stopOnSignals(logger: Logger, drain: () => void, drainMs: number, closeAll: () => void): void {
  let signalled = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (signalled) {
        // Every write was durable before it was answered, and the store's lock goes with the process; what the
        // notification sender held stays in the outbox, due at the next start.
        logger.warn(`${signal} again: exiting now`);
        process.exit(128 + constants.signals[signal]);
      }
      signalled = true;
      drain();
      logger.info(`${signal}: draining, /readyz answers 503; the listener closes in ${drainMs / 1000} s (another signal exits at once)`);
      setTimeout(closeAll, drainMs);
    });
  }
}
