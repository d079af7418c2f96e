/**
 * What the metrics count, kept as plain numbers in place (docs/architecture.md,
 * "Operating"): the hot path adds to a typed array and allocates nothing, and
 * the metrics listener (metrics-server.ts, loaded only with METRICS_PORT)
 * reads them when it is scraped. Until that listener starts, counting is off
 * and every call here returns at its first line.
 *
 * Labels are bounded by construction: route kinds, operation ids, quota
 * names, outcomes, cache and batch names, all from the code. Nothing a
 * request carries (a path, an address, a reader's hash) ever becomes one.
 */

/** Upper bounds of the latency buckets, in seconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Upper bounds of the batch-size buckets, in calls. */
export const BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 20, 50, 100] as const;

/** Counts of observations per bucket (the last one past every bound), with their sum: a histogram not yet cumulated. */
export interface Histogram {
  readonly counts: Float64Array;
  sum: number;
}

function histogram(bounds: readonly number[]): Histogram {
  return { counts: new Float64Array(bounds.length + 1), sum: 0 };
}

function observe(into: Histogram, bounds: readonly number[], value: number): void {
  let index = 0;
  while (index < bounds.length && value > (bounds[index] ?? 0)) index += 1;
  into.counts[index] = (into.counts[index] ?? 0) + 1;
  into.sum += value;
}

/** The requests of one route: a kind, and for the API the operation. */
export interface RouteCounts {
  readonly kind: string;
  readonly operation: string;
  /** Answers by status class: index 0 for 1xx … 4 for 5xx. */
  readonly statuses: Float64Array;
  readonly latency: Histogram;
}

export const WRITE_OUTCOMES = ['stored', 'quota', 'ban', 'captcha', 'spam', 'validation', 'origin', 'failed'] as const;
/**
 * How a write ended: stored, refused (by its quota, a ban, the captcha, its form's honeypot or stamp, validation or the
 * operation's own checks, the Origin), or failed (5xx).
 */
export type WriteOutcome = (typeof WRITE_OUTCOMES)[number];

/** What a cache reports when scraped. */
export interface CacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

/** Everything counted so far, read by the metrics listener. */
export const counted = {
  on: false,
  /** By route: the kind, or for the API the operation id (distinct names either way). */
  routes: new Map<string, RouteCounts>(),
  /** By write (its quota's name, one per write operation): counts by outcome, in WRITE_OUTCOMES' order. */
  writes: new Map<string, Float64Array>(),
  caches: new Map<string, () => CacheStats>(),
  /** By batch kind: sizes and durations (seconds). */
  batches: new Map<string, { sizes: Histogram; seconds: Histogram }>(),
  compactions: { done: 0, failed: 0, seconds: 0 },
  /** By notification channel: sends done and sends failed (notifications counted). */
  notifications: new Map<string, { sent: number; failed: number }>(),
  /** What a scrape reads from the notification sender, while one runs. */
  sender: null as NotificationGauges | null,
};

export interface NotificationGauges {
  /** The outbox's depth by channel, from the store: read at a scrape, not at each pass of the sender, which a long outbox would make costly. */
  outboxDepth(): Promise<Readonly<Record<string, number>>>;
  /** The email notifications this instance holds for its next email. */
  heldForEmail(): number;
}

function notificationCounts(channel: string): { sent: number; failed: number } {
  let counts = counted.notifications.get(channel);
  if (!counts) {
    counts = { sent: 0, failed: 0 };
    counted.notifications.set(channel, counts);
  }
  return counts;
}

/** Notifications of a channel sent, or failed to be sent (they stay in the outbox and are tried again). */
export function notificationsSettled(channel: string, outcome: 'sent' | 'failed', count: number): void {
  if (!counted.on) return;
  notificationCounts(channel)[outcome] += count;
}

/** Where a scrape reads the notification gauges from: the sender running, or null once it stops. */
export function notificationGaugesFrom(sender: NotificationGauges | null): void {
  counted.sender = sender;
}

/** Turns counting on: the metrics listener calls it as it starts. */
export function startCounting(): void {
  counted.on = true;
}

/** A request answered: `operation` is the API operation's id or ''. */
export function requestCounted(kind: string, operation: string, status: number, seconds: number): void {
  if (!counted.on) return;
  const key = operation || kind;
  let route = counted.routes.get(key);
  if (!route) {
    route = { kind, operation, statuses: new Float64Array(5), latency: histogram(LATENCY_BUCKETS) };
    counted.routes.set(key, route);
  }
  const statusClass = Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1;
  route.statuses[statusClass] = (route.statuses[statusClass] ?? 0) + 1;
  observe(route.latency, LATENCY_BUCKETS, seconds);
}

/** A write decided, under its quota's name. */
export function writeDecided(write: string, outcome: WriteOutcome): void {
  if (!counted.on) return;
  let outcomes = counted.writes.get(write);
  if (!outcomes) {
    outcomes = new Float64Array(WRITE_OUTCOMES.length);
    counted.writes.set(write, outcomes);
  }
  const index = WRITE_OUTCOMES.indexOf(outcome);
  outcomes[index] = (outcomes[index] ?? 0) + 1;
}

/** A cache to report, read only when scraped. */
export function cacheWatched(name: string, stats: () => CacheStats): void {
  counted.caches.set(name, stats);
}

/** A store batch ran: how many calls it carried and how long it took. */
export function batchRan(kind: string, size: number, seconds: number): void {
  if (!counted.on) return;
  let batch = counted.batches.get(kind);
  if (!batch) {
    batch = { sizes: histogram(BATCH_SIZE_BUCKETS), seconds: histogram(LATENCY_BUCKETS) };
    counted.batches.set(kind, batch);
  }
  observe(batch.sizes, BATCH_SIZE_BUCKETS, size);
  observe(batch.seconds, LATENCY_BUCKETS, seconds);
}

/** The embedded store folded its journal into its files (or failed to). */
export function compactionRan(ok: boolean, seconds: number): void {
  if (ok) counted.compactions.done += 1;
  else counted.compactions.failed += 1;
  counted.compactions.seconds += seconds;
}
