import { notificationChannel } from '../shapes.ts';
import { isOutboxIdOf, notificationOf, outboxEntriesOf, outboxIdOf, type Notified, type OutboxRef } from '../outbox.ts';
import type { NotificationChannel, OutboxEntry } from '../types.ts';
import { collectionDocument, storedShapes, type CollectionDocument } from './documents.ts';
import { snapshotDocument, type SnapshotDocument } from './durable-json-file.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

const CHANNELS = notificationChannel.options;

type OutboxDocument = CollectionDocument<OutboxEntry>;

/** A channel's entry of a held record: due at the record's creation and never tried, or tried and due again later. */
type ChannelState = 'new' | { attempts: number; dueAt: string };

/**
 * The entries of one new record, one per channel it was written with: the
 * record itself and, per channel, the entry's state (null once sent, or for
 * a channel it was not written with). Its notification and its entries' ids
 * are made from the record when they are read.
 */
class HeldRecord implements Record<NotificationChannel, ChannelState | null> {
  readonly notified: Notified;
  email: ChannelState | null = null;
  webhook: ChannelState | null = null;

  constructor(notified: Notified) {
    this.notified = notified;
  }

  isEmpty(): boolean {
    return CHANNELS.every((channel) => this[channel] === null);
  }

  entry(channel: NotificationChannel, state: ChannelState, told = notificationOf(this.notified)): OutboxEntry {
    const { id, createdAt } = this.notified.record;
    const { attempts, dueAt } = state === 'new' ? { attempts: 0, dueAt: createdAt } : state;
    return { id: outboxIdOf(id, channel), channel, notification: told, createdAt, attempts, dueAt };
  }
}

/** One entry of a held record as it was when a snapshot was taken: written to the file as the entry it is. */
class HeldEntry {
  readonly #record: HeldRecord;
  readonly #channel: NotificationChannel;
  readonly #state: ChannelState;

  constructor(record: HeldRecord, channel: NotificationChannel, state: ChannelState) {
    this.#record = record;
    this.#channel = channel;
    this.#state = state;
  }

  toJSON(): OutboxEntry {
    return this.#record.entry(this.#channel, this.#state);
  }
}

/**
 * The notifications waiting to be sent, oldest first, with the lowdb file
 * that keeps their snapshot (`outbox.json`, one OutboxEntry per channel).
 *
 * A new record's entries, named by outboxIdOf, are kept as one HeldRecord
 * that holds the record itself, which its thread or collection holds anyway:
 * a burst of comments, whose notifications wait while the webhook and the
 * email catch up, then costs memory (and the garbage collector's time) a few
 * dozen bytes a comment rather than a copy of each notification per channel.
 * Every other entry (read from the file, imported, or named otherwise) is
 * kept whole. Adding, finding and removing an entry take the same time
 * however long the outbox is.
 */
export class OutboxQueue implements SnapshotTarget {
  readonly #file: SnapshotDocument<OutboxDocument>;
  /** Held records by record id and whole entries by entry id, in the order they came. */
  readonly #items = new Map<string, HeldRecord | OutboxEntry>();

  private constructor(file: SnapshotDocument<OutboxDocument>) {
    this.#file = file;
    for (const entry of file.data.items) this.addWhole(entry);
    file.data.items = [];
  }

  /** The outbox kept in `file`, empty when there is no file; rejects naming the file when it is damaged. */
  static async load(file: string): Promise<OutboxQueue> {
    const snapshot = snapshotDocument<OutboxDocument>(file, collectionDocument(storedShapes.outboxEntry), {
      format: 1,
      journalSeq: 0,
      items: [],
    });
    await snapshot.read();
    return new OutboxQueue(snapshot);
  }

  get journalSeq(): number {
    return this.#file.data.journalSeq;
  }

  /** The entries `refs` name for a new record. Throws when one of them is here already. */
  add(notified: Notified, refs: readonly OutboxRef[]): void {
    const recordId = notified.record.id;
    let record: HeldRecord | null = null;
    for (const ref of refs) {
      if (!isOutboxIdOf(ref.id, recordId, ref.channel)) {
        for (const entry of outboxEntriesOf(notified, [ref])) this.addWhole(entry);
        continue;
      }
      // Held under the record's id, which is new: an import skips an entry whose id is here, held or whole.
      if (record === null && this.#items.has(recordId)) throw new Error(`${ref.id} appears twice`);
      record ??= new HeldRecord(notified);
      record[ref.channel] = 'new';
    }
    if (record !== null) this.#items.set(recordId, record);
  }

  /** An entry kept as it is. Throws when its id is here already. */
  addWhole(entry: OutboxEntry): void {
    if (this.has(entry.id)) throw new Error(`${entry.id} appears twice`);
    this.#items.set(entry.id, entry);
  }

  has(id: string): boolean {
    return this.#find(id) !== null;
  }

  /** Removes the entry with this id (sent), if any. */
  remove(id: string): void {
    const found = this.#find(id);
    if (found === null) return;
    if ('whole' in found) {
      this.#items.delete(id);
      return;
    }
    found.held[found.channel] = null;
    if (found.held.isEmpty()) this.#items.delete(found.held.notified.record.id);
  }

  /** Counts one failed attempt more on the entry with this id, if any, and makes it due at `dueAt`. */
  failed(id: string, dueAt: string): void {
    const found = this.#find(id);
    if (found === null) return;
    if ('whole' in found) {
      this.#items.set(id, { ...found.whole, attempts: found.whole.attempts + 1, dueAt });
      return;
    }
    const state = found.held[found.channel];
    found.held[found.channel] = { attempts: state === 'new' || state === null ? 1 : state.attempts + 1, dueAt };
  }

  /**
   * Up to `limit` entries of `channel`, oldest first, that are due at `at`
   * (epoch milliseconds) and that `free` lets go (not leased).
   */
  due(channel: NotificationChannel, limit: number, at: number, free: (id: string) => boolean): OutboxEntry[] {
    const found: OutboxEntry[] = [];
    for (const item of this.#items.values()) {
      if (found.length >= limit) break;
      if (item instanceof HeldRecord) {
        const state = item[channel];
        if (state === null) continue;
        const dueAt = state === 'new' ? item.notified.record.createdAt : state.dueAt;
        if (Date.parse(dueAt) > at || !free(outboxIdOf(item.notified.record.id, channel))) continue;
        found.push(item.entry(channel, state));
      } else if (item.channel === channel && Date.parse(item.dueAt) <= at && free(item.id)) {
        found.push({ ...item });
      }
    }
    return found;
  }

  /** How many entries wait for each channel. */
  depth(): Record<NotificationChannel, number> {
    const depth = { email: 0, webhook: 0 };
    for (const item of this.#items.values()) {
      if (item instanceof HeldRecord) for (const channel of CHANNELS) depth[channel] += item[channel] === null ? 0 : 1;
      else depth[item.channel] += 1;
    }
    return depth;
  }

  /** Every entry, oldest first, made as it is visited. */
  *entries(): Generator<OutboxEntry> {
    for (const item of this.#items.values()) {
      if (!(item instanceof HeldRecord)) {
        yield { ...item };
        continue;
      }
      // One notification for the record's entries, as when they were written.
      const told = notificationOf(item.notified);
      for (const channel of CHANNELS) {
        const state = item[channel];
        if (state !== null) yield item.entry(channel, state, told);
      }
    }
  }

  writeSnapshot(journalSeq: number): Promise<number> {
    // Each held entry as it is now, made whole only when its piece of the file is written (JSON.stringify calls
    // toJSON): taking the snapshot costs a small object an entry, not a notification, so a long outbox never holds
    // the event loop at once.
    const items: (OutboxEntry | HeldEntry)[] = [];
    for (const item of this.#items.values()) {
      if (!(item instanceof HeldRecord)) items.push(item);
      else for (const channel of CHANNELS) if (item[channel] !== null) items.push(new HeldEntry(item, channel, item[channel]));
    }
    this.#file.data = { format: 1, journalSeq, items: items as OutboxEntry[] };
    // The file copies the list before this returns: it need not be kept.
    const written = this.#file.adapter.writeSized(this.#file.data);
    this.#file.data.items = [];
    return written;
  }

  /** Where the entry with this id is: kept whole, or a channel of a held record. */
  #find(id: string): { whole: OutboxEntry } | { held: HeldRecord; channel: NotificationChannel } | null {
    const item = this.#items.get(id);
    if (item !== undefined && !(item instanceof HeldRecord)) return { whole: item };
    const dot = id.lastIndexOf('.');
    const channel = CHANNELS.find((name) => name === id.slice(dot + 1));
    if (dot <= 0 || channel === undefined) return null;
    const held = this.#items.get(id.slice(0, dot));
    return held instanceof HeldRecord && held[channel] !== null ? { held, channel } : null;
  }
}
