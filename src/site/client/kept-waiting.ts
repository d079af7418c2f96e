/**
 * What a reader wrote that waits for the owner's approval (MODERATION), kept
 * in this browser under one storage key per kind from the responses that
 * stored it: the pages every reader is served never hold it, so only its
 * writer's page shows it, and only in the browser it was written in. An item
 * is forgotten once the page shows it (approved), or after KEPT_MS (a removed
 * one is never heard of again: the site tells no one what it removed).
 */

/** An item kept: its id, and when it was written (ISO 8601). */
export interface KeptItem {
  id: string;
  createdAt: string;
}

const KEPT_MS = 30 * 24 * 3600 * 1000;

/** The items written less than KEPT_MS before `now` (milliseconds since the epoch), in their order. */
export function stillKept<Item extends KeptItem>(items: readonly Item[], now: number): Item[] {
  return items.filter((item) => now - Date.parse(item.createdAt) < KEPT_MS);
}

/** Everything kept under `key`, those kept too long forgotten. */
export function readKept<Item extends KeptItem>(key: string): Item[] {
  let all: Item[];
  try {
    const kept = JSON.parse(localStorage.getItem(key) ?? '[]') as unknown;
    all = Array.isArray(kept) ? (kept as Item[]) : [];
  } catch {
    // Storage refused (private mode, blocked) or altered by hand: nothing is kept.
    return [];
  }
  const fresh = stillKept(all, Date.now());
  if (fresh.length !== all.length) writeKept(key, fresh);
  return fresh;
}

export function writeKept(key: string, items: readonly KeptItem[]): void {
  try {
    localStorage.setItem(key, JSON.stringify(items));
  } catch {
    // Storage refused: the item waits all the same, its writer just does not see it here.
  }
}

/** Forgets the item with this id, which the page now shows. */
export function forgetKept(key: string, id: string): void {
  writeKept(
    key,
    readKept(key).filter((item) => item.id !== id),
  );
}
