import { firstVerification, outboxEntriesOf } from '../outbox.ts';
import { mentionKey } from '../records.ts';
import type { MentionStore } from '../roles.ts';
import { mention as mentionShape } from '../shapes.ts';
import type { Mention, MentionKey } from '../types.ts';
import { Collection } from './collection.ts';
import type { JournalRecord } from './documents.ts';
import type { EmbeddedCore } from './engine.ts';
import type { StoreLayout } from './layout.ts';
import { Leases } from './leases.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

const MENTION_OPS = ['mention', 'mentionRemoved'] as const;
type MentionRecord = Extract<JournalRecord, { op: (typeof MENTION_OPS)[number] }>;

/** Whether a journal record is one of the Webmentions'. */
export function isMentionRecord(record: JournalRecord): record is MentionRecord {
  return (MENTION_OPS as readonly string[]).includes(record.op);
}

/** The embedded store's Webmentions (`mentions.json` and the journal), and the keys of those with work due. */
export class MentionState {
  readonly mentions: Collection<Mention>;
  readonly due = new Set<string>();

  private constructor(mentions: Collection<Mention>) {
    this.mentions = mentions;
    for (const item of mentions.oldestFirst()) if (item.dueAt !== null) this.due.add(mentionKey(item));
  }

  static async load(layout: StoreLayout): Promise<MentionState> {
    return new MentionState(await Collection.load(layout.mentions, mentionShape, mentionKey));
  }

  /** Applies a journal record unless the snapshot holds it already; returns what it changed. */
  apply(record: MentionRecord): SnapshotTarget | null {
    if (record.seq <= this.mentions.journalSeq) return null;
    if (record.op === 'mentionRemoved') {
      const key = mentionKey(record);
      this.mentions.remove(key);
      this.due.delete(key);
      return this.mentions;
    }
    const key = mentionKey(record.item);
    if (this.mentions.find(key)) this.mentions.replace(record.item);
    else this.mentions.add(record.item);
    if (record.item.dueAt === null) this.due.delete(key);
    else this.due.add(key);
    return this.mentions;
  }
}

/**
 * Webmentions on the embedded store. One process holds the store (lock.ts):
 * a check and the change it decides run with no await between, and leases
 * are kept in memory.
 */
export class EmbeddedMentions implements MentionStore {
  readonly #core: EmbeddedCore;
  readonly #state: MentionState;
  readonly #leases = new Leases();

  constructor(core: EmbeddedCore) {
    this.#core = core;
    this.#state = core.state.mentions;
  }

  async addMention(mention: Mention): Promise<boolean> {
    if (this.#state.mentions.find(mentionKey(mention))) return false;
    await this.#core.commit({ op: 'mention', item: mentionShape.parse(mention) });
    return true;
  }

  /** A first verification's notification goes in the mention's journal line, as whole entries: its id is its own. */
  async replaceMention(mention: Mention): Promise<boolean> {
    const key = mentionKey(mention);
    this.#leases.end([key]);
    const kept = this.#state.mentions.find(key);
    if (!kept) return false;
    const item = mentionShape.parse(mention);
    const notified = firstVerification(kept, item);
    const outbox = notified ? outboxEntriesOf(notified, this.#core.outboxRefs(notified.record.id)) : [];
    await this.#core.commit({ op: 'mention', item, ...(outbox.length > 0 ? { outbox } : {}) });
    return true;
  }

  async removeMention(key: MentionKey): Promise<boolean> {
    const kept = this.#state.mentions.find(mentionKey(key));
    this.#leases.end([mentionKey(key)]);
    if (!kept) return false;
    await this.#core.commit({ op: 'mentionRemoved', source: kept.source, target: kept.target, slug: kept.articleSlug });
    return true;
  }

  findMention(key: MentionKey): Promise<Mention | null> {
    return Promise.resolve(this.#state.mentions.find(mentionKey(key)));
  }

  mentionsOf(articleSlug: string): Promise<Mention[]> {
    const all = this.#state.mentions.oldestFirst();
    return Promise.resolve(all.filter((item) => item.direction === 'received' && item.articleSlug === articleSlug));
  }

  listMentions(): Promise<Mention[]> {
    return Promise.resolve(this.#state.mentions.oldestFirst());
  }

  claimMentions(limit: number, leaseMs: number): Promise<Mention[]> {
    const { due, mentions } = this.#state;
    const find = (key: string) => {
      const item = mentions.find(key);
      return item?.dueAt ? { ...item, dueAt: item.dueAt } : null;
    };
    const claimed = this.#leases.claim(due, find, limit, leaseMs);
    return Promise.resolve(claimed.sort((a, b) => a.dueAt.localeCompare(b.dueAt)));
  }
}
