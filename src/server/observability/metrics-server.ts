/**
 * The Prometheus metrics, on a listener of their own (METRICS_PORT on
 * METRICS_HOST): never on the public port, where `/metrics` is an ordinary
 * missing page. This module, and prom-client with it, is loaded only when
 * METRICS_PORT is set. prom-client writes the exposition format and adds
 * the process's own metrics (CPU, resident memory, heap, event-loop lag,
 * garbage collection); the site's are read from counters.ts at each scrape,
 * so that the requests being counted pay for no label lookups.
 */
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Registry, type Metric } from 'prom-client';
import { BATCH_SIZE_BUCKETS, counted, LATENCY_BUCKETS, startCounting, WRITE_OUTCOMES, type Histogram } from './counters.ts';

type Labels = Readonly<Record<string, string>>;

interface Sample {
  labels: Labels | Record<string, string | number>;
  value: number;
  metricName?: string;
}

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/**
 * A metric whose samples are read when scraped, in the form prom-client's
 * registry reads from its own metrics (`get()`): it formats and escapes them.
 */
function scraped(name: string, help: string, type: 'counter' | 'gauge' | 'histogram', samples: () => Sample[] | Promise<Sample[]>): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: await samples() }),
    reset: () => undefined,
  };
  return metric as unknown as Metric;
}

/** A histogram's samples: cumulative buckets up to +Inf, then its sum and count. */
function histogramSamples(name: string, labels: Labels, bounds: readonly number[], histogram: Histogram): Sample[] {
  const samples: Sample[] = [];
  let cumulated = 0;
  for (const [index, count] of histogram.counts.entries()) {
    cumulated += count;
    samples.push({
      metricName: `${name}_bucket`,
      labels: { ...labels, le: index < bounds.length ? String(bounds[index]) : '+Inf' },
      value: cumulated,
    });
  }
  samples.push({ metricName: `${name}_sum`, labels, value: histogram.sum });
  samples.push({ metricName: `${name}_count`, labels, value: cumulated });
  return samples;
}

/** The labels of a route: its kind, and the operation for the API. */
function routeLabels(kind: string, operation: string): Labels {
  return operation ? { kind, operation } : { kind };
}

function siteMetrics(): Metric[] {
  return [
    scraped('longhand_http_requests_total', 'Requests answered, by route kind, API operation and status class.', 'counter', () =>
      [...counted.routes.values()].flatMap((route) =>
        STATUS_CLASSES.flatMap((status, index) => {
          const value = route.statuses[index] ?? 0;
          return value > 0 ? [{ labels: { ...routeLabels(route.kind, route.operation), status }, value }] : [];
        }),
      ),
    ),
    scraped(
      'longhand_http_request_duration_seconds',
      'Time from a request to its answer being written, by route kind and API operation.',
      'histogram',
      () =>
        [...counted.routes.values()].flatMap((route) =>
          histogramSamples(
            'longhand_http_request_duration_seconds',
            routeLabels(route.kind, route.operation),
            LATENCY_BUCKETS,
            route.latency,
          ),
        ),
    ),
    scraped(
      'longhand_writes_total',
      'Writes by write (its quota name) and outcome: stored; refused by quota, ban, captcha, validation (the operation checks too) or origin; failed (5xx).',
      'counter',
      () =>
        [...counted.writes.entries()].flatMap(([write, outcomes]) =>
          WRITE_OUTCOMES.map((outcome, index) => ({ labels: { write, outcome }, value: outcomes[index] ?? 0 })),
        ),
    ),
    scraped('longhand_cache_entries', 'Answers the front server keeps in memory, by cache.', 'gauge', () =>
      [...counted.caches.entries()].map(([cache, stats]) => ({ labels: { cache }, value: stats().entries })),
    ),
    scraped('longhand_cache_bytes', 'Bytes of the answers kept, every encoding counted, by cache.', 'gauge', () =>
      [...counted.caches.entries()].map(([cache, stats]) => ({ labels: { cache }, value: stats().bytes })),
    ),
    scraped('longhand_cache_hits_total', 'Look-ups that found a fresh answer, by cache.', 'counter', () =>
      [...counted.caches.entries()].map(([cache, stats]) => ({ labels: { cache }, value: stats().hits })),
    ),
    scraped('longhand_cache_misses_total', 'Look-ups that found none, by cache.', 'counter', () =>
      [...counted.caches.entries()].map(([cache, stats]) => ({ labels: { cache }, value: stats().misses })),
    ),
    scraped('longhand_store_batch_size', 'Calls carried by one PostgreSQL batch, by kind.', 'histogram', () =>
      [...counted.batches.entries()].flatMap(([batch, { sizes }]) =>
        histogramSamples('longhand_store_batch_size', { batch }, BATCH_SIZE_BUCKETS, sizes),
      ),
    ),
    scraped('longhand_store_batch_duration_seconds', 'Time one PostgreSQL batch took, by kind.', 'histogram', () =>
      [...counted.batches.entries()].flatMap(([batch, { seconds }]) =>
        histogramSamples('longhand_store_batch_duration_seconds', { batch }, LATENCY_BUCKETS, seconds),
      ),
    ),
    scraped('longhand_store_compactions_total', "The embedded store's journal compactions, by result.", 'counter', () => [
      { labels: { result: 'done' }, value: counted.compactions.done },
      { labels: { result: 'failed' }, value: counted.compactions.failed },
    ]),
    scraped('longhand_store_compaction_seconds_total', 'Time spent compacting the journal.', 'counter', () => [
      { labels: {}, value: counted.compactions.seconds },
    ]),
    scraped('longhand_outbox_depth', 'Notifications waiting in the outbox to be sent, by channel.', 'gauge', async () => {
      // A store that does not answer leaves the gauge out of this scrape rather than failing it.
      const depth = await counted.sender?.outboxDepth().catch(() => null);
      return Object.entries(depth ?? {}).map(([channel, waiting]) => ({ labels: { channel }, value: waiting }));
    }),
    scraped('longhand_email_notifications_held', 'Notifications this instance holds for its next email.', 'gauge', () =>
      counted.sender ? [{ labels: {}, value: counted.sender.heldForEmail() }] : [],
    ),
    scraped('longhand_notifications_sent_total', 'Notifications sent, by channel.', 'counter', () =>
      [...counted.notifications.entries()].map(([channel, counts]) => ({ labels: { channel }, value: counts.sent })),
    ),
    scraped(
      'longhand_notification_failures_total',
      'Notifications whose send failed, by channel; each stays in the outbox and is tried again later.',
      'counter',
      () => [...counted.notifications.entries()].map(([channel, counts]) => ({ labels: { channel }, value: counts.failed })),
    ),
  ];
}

/**
 * Starts counting and serves `GET /metrics` on `host:port`; anything else
 * there is a 404. Resolves with the listener once it listens.
 */
export async function serveMetrics({ port, host }: { port: number; host: string }): Promise<Server> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const metric of siteMetrics()) registry.registerMetric(metric);
  startCounting();
  const server = createServer((req, res) => {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be read\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
