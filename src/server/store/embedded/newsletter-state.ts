import { appearanceKey, issueKey } from '../records.ts';
import type { Appearance, NewsletterIssue, Subscriber } from '../types.ts';
import { Collection } from './collection.ts';
import { storedShapes, type JournalRecord } from './documents.ts';
import type { StoreLayout } from './layout.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

/** The journal operations of appearances and the newsletter. */
const NEWSLETTER_OPS: readonly string[] = [
  'appearances',
  'appearancesHanded',
  'subscriber',
  'subscribersRemoved',
  'issuesQueued',
  'issuesSent',
  'issuesFailed',
  'issuesPruned',
] satisfies NewsletterRecord['op'][];
type NewsletterRecord = Extract<
  JournalRecord,
  {
    op:
      | 'appearances'
      | 'appearancesHanded'
      | 'subscriber'
      | 'subscribersRemoved'
      | 'issuesQueued'
      | 'issuesSent'
      | 'issuesFailed'
      | 'issuesPruned';
  }
>;

/** Whether a journal record is one of appearances or the newsletter. */
export function isNewsletterRecord(record: JournalRecord): record is NewsletterRecord {
  return NEWSLETTER_OPS.includes(record.op);
}

/**
 * The embedded store's appearances, subscribers and newsletter issues, each
 * a collection with its snapshot file, and what their roles look up without
 * reading every item: a subscriber by address, the issues not sent yet.
 */
export class NewsletterState {
  readonly appearances: Collection<Appearance>;
  readonly subscribers: Collection<Subscriber>;
  readonly issues: Collection<NewsletterIssue>;
  /** Subscribers' ids by address. */
  readonly #byAddress = new Map<string, string>();
  /** The keys of the issues not sent yet, oldest first. */
  readonly unsent = new Set<string>();

  private constructor(appearances: Collection<Appearance>, subscribers: Collection<Subscriber>, issues: Collection<NewsletterIssue>) {
    this.appearances = appearances;
    this.subscribers = subscribers;
    this.issues = issues;
    for (const { id, email } of subscribers.oldestFirst()) this.#byAddress.set(email, id);
    for (const issue of issues.oldestFirst()) if (issue.sentAt === null) this.unsent.add(issueKey(issue));
  }

  static async load(layout: StoreLayout): Promise<NewsletterState> {
    return new NewsletterState(
      await Collection.load(layout.appearances, storedShapes.appearance, appearanceKey),
      await Collection.load(layout.subscribers, storedShapes.subscriber, (item) => item.id),
      await Collection.load(layout.newsletterIssues, storedShapes.newsletterIssue, issueKey),
    );
  }

  get targets(): SnapshotTarget[] {
    return [this.appearances, this.subscribers, this.issues];
  }

  /** The subscriber of an address (as records.ts normalizes it), or null. */
  subscriberOf(email: string): Subscriber | null {
    const id = this.#byAddress.get(email);
    return id === undefined ? null : this.subscribers.find(id);
  }

  /** Applies a journal record unless the snapshot of what it changes holds it already; returns what it changed. */
  apply(record: NewsletterRecord): SnapshotTarget | null {
    switch (record.op) {
      case 'appearances':
        return unlessHeld(this.appearances, record.seq, () => {
          // A translation's new version takes the place of the one before.
          for (const item of record.items) {
            if (this.appearances.find(appearanceKey(item))) this.appearances.replace(item);
            else this.appearances.add(item);
          }
        });
      case 'appearancesHanded':
        return unlessHeld(this.appearances, record.seq, () => {
          for (const key of record.keys) {
            const item = this.appearances.find(key);
            if (item) this.appearances.replace({ ...item, waiting: without(item.waiting, record.consumer) });
          }
        });
      case 'subscriber':
        return unlessHeld(this.subscribers, record.seq, () => {
          if (this.subscribers.find(record.item.id)) this.subscribers.replace(record.item);
          else this.subscribers.add(record.item);
          this.#byAddress.set(record.item.email, record.item.id);
        });
      case 'subscribersRemoved':
        return unlessHeld(this.subscribers, record.seq, () => {
          this.#removeSubscribers(record.ids);
        });
      case 'issuesQueued':
        return unlessHeld(this.issues, record.seq, () => {
          for (const item of record.items) {
            this.issues.add(item);
            if (item.sentAt === null) this.unsent.add(issueKey(item));
          }
        });
      case 'issuesSent':
        return this.#changeIssues(record.seq, record.keys, (issue) => ({ ...issue, sentAt: record.sentAt }));
      case 'issuesFailed':
        return this.#changeIssues(record.seq, record.keys, (issue) => ({ ...issue, attempts: issue.attempts + 1, dueAt: record.dueAt }));
      case 'issuesPruned':
        return unlessHeld(this.issues, record.seq, () => {
          for (const issue of this.sentBefore(record.sentBefore)) this.issues.remove(issueKey(issue));
        });
    }
  }

  /** The issues sent before `time` (ISO 8601). */
  sentBefore(time: string): NewsletterIssue[] {
    const before = Date.parse(time);
    return this.issues.oldestFirst().filter((issue) => issue.sentAt !== null && Date.parse(issue.sentAt) < before);
  }

  /** Removes subscribers and their issues not sent: those sent stay, holding no address. */
  #removeSubscribers(ids: readonly string[]): void {
    const gone = new Set(ids);
    for (const id of ids) {
      const item = this.subscribers.find(id);
      if (item) this.#byAddress.delete(item.email);
      this.subscribers.remove(id);
    }
    for (const key of [...this.unsent]) {
      const issue = this.issues.find(key);
      if (issue && gone.has(issue.subscriberId)) {
        this.issues.remove(key);
        this.unsent.delete(key);
      }
    }
  }

  #changeIssues(seq: number, keys: readonly string[], change: (issue: NewsletterIssue) => NewsletterIssue): SnapshotTarget | null {
    return unlessHeld(this.issues, seq, () => {
      for (const key of keys) {
        const issue = this.issues.find(key);
        if (!issue) continue;
        const changed = change(issue);
        this.issues.replace(changed);
        if (changed.sentAt !== null) this.unsent.delete(key);
      }
    });
  }
}

function unlessHeld(target: SnapshotTarget, seq: number, change: () => void): SnapshotTarget | null {
  if (seq <= target.journalSeq) return null;
  change();
  return target;
}

/** `list` without `value`. */
function without<Value>(list: readonly Value[], value: Value): Value[] {
  return list.filter((each) => each !== value);
}
