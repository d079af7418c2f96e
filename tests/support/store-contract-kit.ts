/** What the store contract's files share: the harness, the stores a test opens, the records it writes. */
import type { StoreEngine } from '../../src/server/store/roles.ts';
import type { ExportRecord, NewCitySubmission, NewComment, NotificationChannel } from '../../src/server/store/types.ts';

/**
 * What a store contract run needs from an engine: a fresh, empty place to
 * keep a store (a directory, a database), and a way to open the store kept
 * there, again after it was closed.
 */
export interface StoreHarness {
  fresh(): Promise<string>;
  open(place: string, options?: { notificationChannels: readonly NotificationChannel[] }): Promise<StoreEngine>;
}

/** The harness, and the stores a test opens with it, each closed when the test ends. */
export interface ContractStores {
  harness: StoreHarness;
  /** A fresh store. */
  freshStore: (t: { after(fn: () => Promise<void>): void }) => Promise<StoreEngine>;
  /** A fresh store that puts new records in the outbox for both channels. */
  notifyingStore: (t: { after(fn: () => Promise<void>): void }) => Promise<{ store: StoreEngine; place: string }>;
}

export const BOTH_CHANNELS: readonly NotificationChannel[] = ['email', 'webhook'];

export function newComment(articleSlug: string, body = 'A thought.', parentId: string | null = null): NewComment {
  return { articleSlug, parentId, depth: parentId ? 2 : 1, author: 'Amber otter', authorHash: 'hash-1', body, status: 'published' };
}

/** A city submission as the store receives it. */
export const PARIS_SUBMISSION: NewCitySubmission = {
  cityId: '2988507',
  city: 'Paris',
  country: 'FR',
  countryName: 'France',
  region: 'Île-de-France',
  lat: 48.85,
  lon: 2.35,
  currency: 'EUR',
  netPay: 2500,
  rent: 1200,
  beerPrice: 7,
  authorHash: 'h',
};

export async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const record of records) list.push(record);
  return list;
}

/** Records as an import reads them: one at a time, asynchronously. */
export async function* replay<T>(records: T[]): AsyncGenerator<T> {
  for (const record of records) yield await Promise.resolve(record);
}

/** Records in an order that does not depend on the engine (votes come out in an engine's own order). */
export function sortedRecords(records: ExportRecord[]): string[] {
  return records.map((record) => JSON.stringify(record)).sort();
}
