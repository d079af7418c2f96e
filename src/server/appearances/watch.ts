/**
 * Appearances: the one mechanism that notices an article translation become
 * visible (its date arrives, with no rebuild; or a redeploy adds it) and
 * hands it, once, to each consumer (the newsletter; federation's `Create`
 * activities next). docs/architecture.md, "Appearances and the newsletter".
 *
 * It runs beside the requests, never in one: at start, every CHECK_MS, and
 * just after each UTC midnight. The store records each translation once
 * across instances (AppearanceStore), the first run on a store as a baseline
 * handed to no one, so that what was visible before is never sent.
 */
import { todayUtc, type Catalog } from '../articles/catalog.ts';
import { log } from '../observability/log.ts';
import type { AppearanceStore } from '../store/roles.ts';
import type { Appearance, AppearanceConsumer, ArticleTranslation } from '../store/types.ts';

/** How often the published view is compared with what was recorded. */
const CHECK_MS = 30_000;
/** How far past midnight (UTC) the day's check runs: the catalog's day has turned by then. */
const AFTER_MIDNIGHT_MS = 1000;
const DAY_MS = 86_400_000;
/** Appearances handed to a consumer at a pass, at most. */
const HANDED_AT_ONCE = 100;

/** What a consumer does with an appearance: done once however often it is handed (the store hands again after a crash). */
export interface Consumer {
  name: AppearanceConsumer;
  take(appearance: Appearance): Promise<void>;
}

/** Every translation the writer wrote of every article visible on `today`. */
export function visibleTranslations(catalog: Catalog, today: string): ArticleTranslation[] {
  const view = catalog.on(today);
  const slugs = catalog.scheduled.filter(({ slug }) => view.has(slug)).map(({ slug }) => slug);
  return slugs.flatMap((slug) => catalog.languagesOf(slug).map((lang) => ({ slug, lang })));
}

/** One pass: records what is newly visible, then hands every consumer what waits for it. */
async function pass(store: AppearanceStore, catalog: Catalog, consumers: readonly Consumer[], known: Set<string>): Promise<void> {
  const visible = visibleTranslations(catalog, todayUtc()).filter(({ slug, lang }) => !known.has(`${slug}/${lang}`));
  if (visible.length > 0) {
    const recorded = await store.recordAppearances(
      visible,
      consumers.map((consumer) => consumer.name),
    );
    // Recorded by this call or another instance's: either way, never recorded again.
    for (const { slug, lang } of visible) known.add(`${slug}/${lang}`);
    const fresh = recorded.filter((appearance) => !appearance.baseline).length;
    if (fresh > 0) log().info(`[appearances] ${fresh} article translation(s) became visible`);
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
  const known = new Set<string>();
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
    pass(store, catalog, consumers, known)
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
