/**
 * Appearances: the one mechanism that notices an article translation become
 * visible (its date arrives, with no rebuild; or a redeploy adds it), change
 * (a redeploy changes what a follower sees of it) or be withdrawn (a
 * redeploy removes it, makes it a draft or dates it ahead), and hands each
 * such version, once, to each consumer (the newsletter, federation's
 * activities). docs/architecture.md, "Appearances and the newsletter".
 *
 * It runs beside the requests, never in one: at start, every CHECK_MS, and
 * just after each UTC midnight. The store records each version once across
 * instances (AppearanceStore), the first run on a store as a baseline
 * handed to no one, so that what was visible before is never sent. A pass
 * asks the store only when what is visible differs from what it last
 * recorded whole: a build's content changes only with the date.
 */
import { createHash } from 'node:crypto';
import { todayUtc, type Catalog } from '../articles/catalog.ts';
import { log } from '../observability/log.ts';
import type { AppearanceStore } from '../store/roles.ts';
import type { Appearance, AppearanceConsumer, RecordedAppearances, VisibleTranslation } from '../store/types.ts';

/** How often the published view is compared with what was recorded. */
const CHECK_MS = 30_000;
/** How far past midnight (UTC) the day's check runs: the catalog's day has turned by then. */
const AFTER_MIDNIGHT_MS = 1000;
const DAY_MS = 86_400_000;
/** Appearances handed to a consumer at a pass, at most. */
const HANDED_AT_ONCE = 100;

/**
 * What a consumer does with an appearance's version (`change`: create,
 * update or delete): done once however often it is handed (the store hands
 * again after a crash).
 */
export interface Consumer {
  name: AppearanceConsumer;
  take(appearance: Appearance): Promise<void>;
}

/** Every translation the writer wrote of every article visible on `today`, with its digest. */
export function visibleTranslations(catalog: Catalog, today: string): VisibleTranslation[] {
  const view = catalog.on(today);
  const slugs = catalog.scheduled.filter(({ slug }) => view.has(slug)).map(({ slug }) => slug);
  return slugs.flatMap((slug) =>
    catalog.languagesOf(slug).flatMap((lang) => {
      const digest = catalog.digestOf(slug, lang);
      return digest === undefined ? [] : [{ slug, lang, digest }];
    }),
  );
}

/** One digest of a whole visible set: the same set, the same fingerprint. */
function fingerprintOf(visible: readonly VisibleTranslation[]): string {
  const hash = createHash('sha256');
  for (const { slug, lang, digest } of visible) hash.update(`${slug}/${lang} ${digest}\n`);
  return hash.digest('base64url');
}

function logRecorded({ recorded }: RecordedAppearances): void {
  const handed = recorded.filter((appearance) => !appearance.baseline || appearance.version > 1);
  if (handed.length === 0) return;
  const count = (change: Appearance['change']) => handed.filter((appearance) => appearance.change === change).length;
  log().info(`[appearances] article translation(s): ${count('create')} appeared, ${count('update')} changed, ${count('delete')} withdrawn`);
}

/** What a watcher remembers between passes: the fingerprint of the visible set it last recorded with nothing left for later. */
interface Recorded {
  fingerprint: string | null;
  /**
   * The visible set's fingerprint on the last day a pass saw: a process's
   * catalog does not change, so the set is worked out again only when the
   * day does, or when it is recorded.
   */
  seen?: { today: string; fingerprint: string };
}

/** One pass: records what changed, then hands every consumer what waits for it. */
async function pass(store: AppearanceStore, catalog: Catalog, consumers: readonly Consumer[], last: Recorded): Promise<void> {
  const today = todayUtc();
  if (last.seen?.today !== today) last.seen = { today, fingerprint: fingerprintOf(visibleTranslations(catalog, today)) };
  const { fingerprint } = last.seen;
  if (fingerprint !== last.fingerprint) {
    const visible = visibleTranslations(catalog, today);
    const recorded = await store.recordAppearances(
      visible,
      consumers.map((consumer) => consumer.name),
    );
    // A change left for later (its translation's version was still being handed) is recorded at a later pass.
    if (!recorded.deferred) last.fingerprint = fingerprint;
    logRecorded(recorded);
  }
  for (const consumer of consumers) {
    for (const appearance of await store.appearancesWaiting(consumer.name, HANDED_AT_ONCE)) {
      await consumer.take(appearance);
      await store.appearancesHanded(consumer.name, [appearance]);
    }
  }
}

/** The milliseconds until the next check: CHECK_MS, or sooner when a UTC day begins before. */
function nextCheckIn(now: number): number {
  const midnight = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS + AFTER_MIDNIGHT_MS;
  return Math.min(CHECK_MS, midnight - now);
}

/** Starts watching; the returned stop resolves once a pass under way is over. */
export function watchAppearances(store: AppearanceStore, catalog: Catalog, consumers: readonly Consumer[]): () => Promise<void> {
  const last: Recorded = { fingerprint: null };
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = check();
    }, nextCheckIn(Date.now()));
  };
  const check = () =>
    pass(store, catalog, consumers, last)
      .catch((error: unknown) => {
        log().error('[appearances] the check failed; tried again at the next one', {}, error);
      })
      .finally(schedule);
  running = check();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
