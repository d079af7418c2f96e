/** The embedded store: its files, its journal and how they are folded together are in docs/architecture.md ("The store"). */
import { compactionRan } from '../../observability/counters.ts';
import { log } from '../../observability/log.ts';
import { outboxRefsOf, type OutboxRef } from '../outbox.ts';
import { engineOf, type StoreEngine, type StoreLifecycle } from '../roles.ts';
import { threadTopic, type NotificationChannel, type RevisionTopic } from '../types.ts';
import { articleSlugOf, type JournalChange, type JournalRecord } from './documents.ts';
import { Journal, removeGenerationsBefore } from './journal.ts';
import { storeLayout, type StoreLayout } from './layout.ts';
import { takeLock, type StoreLock } from './lock.ts';
import { EmbeddedDeliveries } from './deliveries.ts';
import { EmbeddedMentions } from './mentions.ts';
import { EmbeddedFollowers, FollowerFile } from './followers.ts';
import { EmbeddedAppearances } from './appearances.ts';
import { EmbeddedModeration } from './moderation.ts';
import { EmbeddedNewsletter } from './newsletter.ts';
import { EmbeddedOutbox } from './outbox.ts';
import { recover, type Recovered } from './recovery.ts';
import { readSaltFile, writeSaltFile } from './salt-file.ts';
import { keepSecret, readSecret } from './secret-file.ts';
import type { SnapshotTarget } from './snapshot-target.ts';
import type { StoreState } from './state.ts';
import { EmbeddedSubmissions } from './submissions.ts';
import { EmbeddedThreads } from './threads.ts';
import { EmbeddedTransfer } from './transfer.ts';

export interface EmbeddedStoreOptions {
  /**
   * Compact once the journal's current generation holds this many bytes, or
   * as many as the last compaction wrote to snapshot files if that is more:
   * long threads or a long outbox are then rewritten at most a byte for each
   * byte of journal, however long they grow, and a replay on open reads no
   * more journal than it reads snapshot files.
   */
  compactAfterBytes: number;
  /** Compact this often (milliseconds) while something changed since the last compaction; let go of idle threads as often. */
  compactEveryMs: number;
  /** How many comments the threads kept in memory may hold before idle ones are let go (read again from their files when asked for). */
  keptComments: number;
  /** The channels a new comment, request, report or submission, or a verified Webmention, is put in the outbox for. */
  notificationChannels: readonly NotificationChannel[];
}

// A journal this size replays quickly on open, and folding it in less often keeps write latency even.
const DEFAULT_OPTIONS: EmbeddedStoreOptions = {
  compactAfterBytes: 16 * 1024 * 1024,
  compactEveryMs: 30_000,
  keptComments: 20_000,
  notificationChannels: [],
};

/**
 * Opens (creating when absent) the embedded store in `dataDir`. Rejects,
 * naming the file and what is wrong with it, when a file is damaged.
 */
export async function openEmbeddedStore(dataDir: string, options: Partial<EmbeddedStoreOptions> = {}): Promise<StoreEngine> {
  const layout = storeLayout(dataDir);
  const lock = await takeLock(layout);
  try {
    const recovered = await recover(layout);
    // Never append to a replayed generation: its last line may be torn.
    const journal = await Journal.create(layout.journal, (recovered.generations.at(-1) ?? 0) + 1);
    const followers = await FollowerFile.load(layout.followers);
    const core = new EmbeddedCore(layout, lock, recovered, journal, { ...DEFAULT_OPTIONS, ...options });
    return engineOf({
      threads: new EmbeddedThreads(core),
      submissions: new EmbeddedSubmissions(core),
      moderation: new EmbeddedModeration(core),
      outbox: new EmbeddedOutbox(core),
      followers: new EmbeddedFollowers(followers),
      deliveries: new EmbeddedDeliveries(core),
      mentions: new EmbeddedMentions(core),
      appearances: new EmbeddedAppearances(core),
      newsletter: new EmbeddedNewsletter(core),
      transfer: new EmbeddedTransfer(core, followers),
      lifecycle: new EmbeddedLifecycle(core),
    });
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The cached render a change makes stale, if any. */
function revisionTopicOf(change: JournalChange): RevisionTopic | null {
  const slug = articleSlugOf(change);
  if (slug !== null) return threadTopic(slug);
  // A received Webmention is shown under its article's thread.
  if (change.op === 'mention') return change.item.direction === 'received' ? threadTopic(change.item.articleSlug) : null;
  if (change.op === 'mentionRemoved') return threadTopic(change.slug);
  const changesRequests = ['topicRequest', 'answerTopicRequest', 'approveTopicRequest', 'removeTopicRequest'].includes(change.op);
  return changesRequests ? 'topic-requests' : null;
}

/**
 * What every role of the embedded store shares: its state in memory, the
 * journal every change is committed to, and the compactions that fold the
 * journal into snapshot files.
 */
export class EmbeddedCore {
  readonly layout: StoreLayout;
  readonly state: StoreState;
  readonly journal: Journal;
  /** The journal number of each topic's last change; one process owns the directory, so memory is the truth. */
  readonly revisions = new Map<RevisionTopic, number>();
  readonly #lock: StoreLock;
  readonly #options: EmbeddedStoreOptions;
  /** The states changed since their snapshot file was last written. */
  readonly #changed: Set<SnapshotTarget>;
  #lastSeq: number;
  /** Bytes the last compaction wrote to snapshot files (see compactAfterBytes). */
  #lastSnapshotBytes = 0;
  #compaction: Promise<void> | null = null;
  #closing: Promise<void> | null = null;
  readonly #timer: NodeJS.Timeout;

  constructor(layout: StoreLayout, lock: StoreLock, recovered: Recovered, journal: Journal, options: EmbeddedStoreOptions) {
    this.layout = layout;
    this.#lock = lock;
    this.state = recovered.state;
    this.journal = journal;
    this.#options = options;
    this.#changed = recovered.changed;
    this.#lastSeq = recovered.lastSeq;
    this.#timer = setInterval(() => {
      this.#unloadIdleThreads();
      if (this.#changed.size > 0) this.#startCompaction();
    }, options.compactEveryMs).unref();
    // Replayed generations go once their records are in snapshot files.
    if (recovered.generations.length > 0) this.#startCompaction();
  }

  /** The names of a new record's outbox entries, one per channel this store notifies: the journal line holds these, and the entries are made from its record. */
  outboxRefs(recordId: string): OutboxRef[] {
    return outboxRefsOf(recordId, this.#options.notificationChannels);
  }

  /** Commits a change once the thread it changes is in memory. */
  async prepareAndCommit(change: JournalChange): Promise<void> {
    await this.state.prepare(change);
    return this.commit(change);
  }

  /** Numbers the change, applies it in memory and resolves once its journal line is on disk. */
  commit(change: JournalChange): Promise<void> {
    if (this.#closing) return Promise.reject(new Error('The store is closed.'));
    if (this.journal.failure) return Promise.reject(this.journal.failure);
    const record: JournalRecord = { seq: ++this.#lastSeq, ...change };
    const topic = revisionTopicOf(change);
    for (const changed of this.state.apply(record)) this.#changed.add(changed);
    if (topic) this.revisions.set(topic, record.seq);
    if (topic?.startsWith('thread:')) this.revisions.set('threads', record.seq);
    if (this.journal.bytes >= Math.max(this.#options.compactAfterBytes, this.#lastSnapshotBytes)) this.#startCompaction();
    return this.journal.append(`${JSON.stringify(record)}\n`);
  }

  ping(): Promise<void> {
    if (this.#closing) return Promise.reject(new Error('The store is closed.'));
    // A journal that failed a write refuses every later one until a restart.
    return this.journal.failure ? Promise.reject(this.journal.failure) : Promise.resolve();
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  /** Lets go of idle threads whose files hold all of them; never while snapshots are being written. */
  #unloadIdleThreads(): void {
    if (this.#compaction || this.#closing) return;
    this.state.unloadIdle(this.#options.keptComments, (thread) => !this.#changed.has(thread));
  }

  #startCompaction(): void {
    if (this.#compaction || this.#closing) return;
    const started = performance.now();
    this.#compaction = this.#compact()
      .then(
        () => {
          compactionRan(true, (performance.now() - started) / 1000);
        },
        (error: unknown) => {
          compactionRan(false, (performance.now() - started) / 1000);
          log().error('[store] compaction failed; the journal keeps every write and it is tried again later', {}, error);
        },
      )
      .finally(() => {
        this.#compaction = null;
      });
  }

  async #compact(): Promise<void> {
    await this.journal.rotate();
    this.#lastSnapshotBytes = await this.#writeSnapshots();
    await removeGenerationsBefore(this.layout.journal, this.journal.generation);
  }

  /** Writes the snapshot file of every changed state, resolving with the bytes written; those that fail stay marked changed. */
  async #writeSnapshots(): Promise<number> {
    const targets = [...this.#changed];
    this.#changed.clear();
    let bytes = 0;
    try {
      for (const target of targets) bytes += await target.writeSnapshot(this.#lastSeq);
    } catch (error) {
      for (const target of targets) this.#changed.add(target);
      throw error;
    }
    return bytes;
  }

  /** Lets pending writes finish, then leaves everything in snapshot files and no journal behind. */
  async #shutDown(): Promise<void> {
    clearInterval(this.#timer);
    await this.#compaction;
    await this.journal.close();
    // After a failed journal write, memory may hold writes that were refused: keep the disk as it is.
    if (this.journal.failure) throw this.journal.failure;
    await this.#writeSnapshots();
    await removeGenerationsBefore(this.layout.journal, this.journal.generation + 1);
    this.#lock.release();
  }
}

/** The embedded store as the process holds it: its salt and secret files, its journal's health, its closing. */
class EmbeddedLifecycle implements StoreLifecycle {
  readonly #core: EmbeddedCore;

  constructor(core: EmbeddedCore) {
    this.#core = core;
  }

  async keptSalt(make: () => string): Promise<string> {
    const { salt } = this.#core.layout;
    return (await readSaltFile(salt)) ?? writeSaltFile(salt, make());
  }

  async keptSecret(name: string, make: () => string | Promise<string>): Promise<string> {
    const { layout } = this.#core;
    return (await readSecret(layout, name)) ?? keepSecret(layout, name, await make());
  }

  ping(): Promise<void> {
    return this.#core.ping();
  }

  close(): Promise<void> {
    return this.#core.close();
  }
}
