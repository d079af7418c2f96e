/**
 * The embedded store: lowdb JSON files in a data directory, with a journal in
 * front of them, so that a write costs one append and a share of one fsync
 * instead of rewriting a file. Its files, its journal and how they are folded
 * together are described in docs/architecture.md ("The store").
 */
import { compactionRan } from '../../observability/counters.ts';
import { log } from '../../observability/log.ts';
import { newBan, newBugReport, newCitySubmission, newComment, newTopicRequest } from '../records.ts';
import { outboxRefsOf, type OutboxRef } from '../outbox.ts';
import {
  threadTopic,
  type BugReport,
  type CitySubmission,
  type CommentFilter,
  type ExportRecord,
  type ImportCounts,
  type NewBugReport,
  type NewCitySubmission,
  type NewComment,
  type NewTopicRequest,
  type NotificationChannel,
  type OutboxEntry,
  type OutboxKey,
  type ReviewQueue,
  type RevisionTopic,
  type StoredComment,
  type StoreStats,
  type TopicRequest,
  type SpentLink,
  type TopicRequestAnswer,
  type VoteTarget,
  type VoteValue,
  type CastVote,
} from '../types.ts';
import type { StoreEngine } from '../roles.ts';
import { articleSlugOf, type JournalChange, type JournalRecord } from './documents.ts';
import { Journal, removeGenerationsBefore } from './journal.ts';
import { storeLayout, type StoreLayout } from './layout.ts';
import { takeLock, type StoreLock } from './lock.ts';
import { recover, type Recovered } from './recovery.ts';
import { readSaltFile, writeSaltFile } from './salt-file.ts';
import type { SnapshotTarget } from './snapshot-target.ts';
import type { StoreState } from './state.ts';
import { now } from '../clock.ts';

/** Newest first, as PostgreSQL orders them (by time, then id). */
function newestFirst(a: StoredComment, b: StoredComment): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

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
  /** The channels a new comment, request, report or submission is put in the outbox for. */
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
    return new EmbeddedStore(layout, lock, recovered, journal, { ...DEFAULT_OPTIONS, ...options });
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The cached render a change makes stale, if any. */
function revisionTopicOf(change: JournalChange): RevisionTopic | null {
  const slug = articleSlugOf(change);
  if (slug !== null) return threadTopic(slug);
  const changesRequests = ['topicRequest', 'answerTopicRequest', 'approveTopicRequest', 'removeTopicRequest'].includes(change.op);
  return changesRequests ? 'topic-requests' : null;
}

/** How many writes an import leaves in flight before it waits for them. */
const IMPORT_WINDOW = 1000;

class EmbeddedStore implements StoreEngine {
  readonly #layout: StoreLayout;
  readonly #lock: StoreLock;
  readonly #state: StoreState;
  readonly #journal: Journal;
  readonly #options: EmbeddedStoreOptions;
  /** The states changed since their snapshot file was last written. */
  readonly #changed: Set<SnapshotTarget>;
  #lastSeq: number;
  /** The journal number of each topic's last change; one process owns the directory, so memory is the truth. */
  readonly #revisions = new Map<RevisionTopic, number>();
  /** Claimed outbox entries: until when (epoch milliseconds) no other claim gets them. */
  readonly #leases = new Map<string, number>();
  /** Bytes the last compaction wrote to snapshot files (see compactAfterBytes). */
  #lastSnapshotBytes = 0;
  #compaction: Promise<void> | null = null;
  #closing: Promise<void> | null = null;
  readonly #timer: NodeJS.Timeout;

  constructor(layout: StoreLayout, lock: StoreLock, recovered: Recovered, journal: Journal, options: EmbeddedStoreOptions) {
    this.#layout = layout;
    this.#lock = lock;
    this.#state = recovered.state;
    this.#journal = journal;
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

  async insertComment(comment: NewComment): Promise<StoredComment> {
    const stored = newComment(comment);
    const answer = { ...stored };
    await this.#prepareAndCommit({ op: 'comment', comment: stored, outbox: this.#outboxRefs(stored.id) });
    return answer;
  }

  async getComment(articleSlug: string, id: string): Promise<StoredComment | null> {
    return (await this.#state.article(articleSlug))?.comment(id) ?? null;
  }

  async listComments(articleSlug: string): Promise<StoredComment[]> {
    return (await this.#state.article(articleSlug))?.publishedComments() ?? [];
  }

  async latestComments(articleSlugs: readonly string[], limit: number): Promise<StoredComment[]> {
    let newest: StoredComment[] = [];
    // Threads with the newest published comment first, each read only while it may hold one newer than the last kept.
    for (const { slug, lastPublished } of this.#state.threadsByLastPublished(articleSlugs)) {
      const oldestKept = newest.at(limit - 1);
      if (oldestKept && lastPublished < Date.parse(oldestKept.createdAt)) break;
      const shown = (await this.#state.article(slug))?.publishedComments().filter((comment) => comment.deletedAt === null) ?? [];
      newest = [...newest, ...shown].sort(newestFirst).slice(0, limit);
    }
    return newest;
  }

  everPublished(readerHash: string): Promise<boolean> {
    return Promise.resolve(this.#state.moderation.publishedAuthors.has(readerHash));
  }

  async latestCommentBy(authorHash: string): Promise<StoredComment | null> {
    const newest = this.#state.newestCommentOf(authorHash);
    return newest ? ((await this.#state.article(newest.articleSlug))?.comment(newest.id) ?? null) : null;
  }

  async articleScore(articleSlug: string): Promise<number> {
    return (await this.#state.article(articleSlug))?.scoreOf(null) ?? 0;
  }

  async applyVote(
    target: VoteTarget,
    voter: string,
    decide: (current: VoteValue) => VoteValue,
  ): Promise<{ score: number; vote: VoteValue } | null> {
    const { articleSlug, commentId } = target;
    const existing = await this.#state.article(articleSlug);
    if (commentId !== null && !existing?.hasLiveComment(commentId)) return null;
    const thread = existing ?? (await this.#state.articleToWrite(articleSlug));
    // From here to the commit nothing is awaited: the vote decides against every vote before it.
    const current = thread.voteOf(voter, commentId);
    const vote = decide(current);
    const durable =
      vote === current
        ? // Nothing changes, but what `decide` saw may still be on its way to disk.
          this.#journal.append('')
        : this.#commit({ op: 'vote', articleSlug, commentId, voter, vote });
    const score = thread.scoreOf(commentId);
    await durable;
    return { score, vote };
  }

  async votesOf(articleSlug: string, voter: string): Promise<{ article: VoteValue; comments: Record<string, CastVote> }> {
    return (await this.#state.article(articleSlug))?.votesOf(voter) ?? { article: 0, comments: {} };
  }

  async insertTopicRequest(request: NewTopicRequest): Promise<TopicRequest> {
    const stored = newTopicRequest(request);
    const answer = { ...stored };
    await this.#commit({ op: 'topicRequest', item: stored, outbox: this.#outboxRefs(stored.id) });
    return answer;
  }

  listTopicRequests(): Promise<TopicRequest[]> {
    return Promise.resolve(this.#state.topicRequests.newestFirst().filter((request) => request.status !== 'waiting'));
  }

  async insertBugReport(report: NewBugReport): Promise<BugReport> {
    const stored = newBugReport(report);
    const answer = { ...stored };
    await this.#commit({ op: 'bugReport', item: stored, outbox: this.#outboxRefs(stored.id) });
    return answer;
  }

  async insertCitySubmission(submission: NewCitySubmission): Promise<CitySubmission> {
    const stored = newCitySubmission(submission);
    const answer = { ...stored };
    await this.#commit({ op: 'citySubmission', item: stored, outbox: this.#outboxRefs(stored.id) });
    return answer;
  }

  isBanned(readerHash: string): Promise<boolean> {
    return Promise.resolve(this.#state.bans.find(readerHash) !== null);
  }

  async keptSalt(make: () => string): Promise<string> {
    return (await readSaltFile(this.#layout.salt)) ?? writeSaltFile(this.#layout.salt, make());
  }

  async findComment(id: string): Promise<StoredComment | null> {
    const pendingOn = this.#state.moderation.pending.get(id);
    if (pendingOn !== undefined) return this.getComment(pendingOn, id);
    for await (const thread of this.#state.threads()) if (thread.hasComment(id)) return thread.comment(id);
    return null;
  }

  approveComment(id: string): Promise<StoredComment | null> {
    return this.#changePending(id, 'approveComment');
  }

  removePendingComment(id: string): Promise<StoredComment | null> {
    return this.#changePending(id, 'removeComment');
  }

  /** Approves or removes a pending comment; null when none has this id. */
  async #changePending(id: string, op: 'approveComment' | 'removeComment'): Promise<StoredComment | null> {
    const articleSlug = this.#state.moderation.pending.get(id);
    const before = articleSlug === undefined ? null : await this.getComment(articleSlug, id);
    if (articleSlug === undefined || before?.status !== 'pending') return null;
    await this.#prepareAndCommit({ op, articleSlug, commentId: id });
    return op === 'approveComment' ? { ...before, status: 'published' } : before;
  }

  async deleteComment(id: string): Promise<StoredComment | null> {
    for await (const thread of this.#state.threads()) {
      if (!thread.hasComment(id)) continue;
      const change: JournalChange = { op: 'deleteComment', articleSlug: thread.slug, commentId: id, deletedAt: now() };
      await this.#prepareAndCommit(change);
      return (await this.#state.article(thread.slug))?.comment(id) ?? null;
    }
    return null;
  }

  async moderateTopicRequest(id: string, verdict: 'approve' | 'remove'): Promise<TopicRequest | null> {
    const request = this.#state.topicRequests.find(id);
    if (request?.status !== 'waiting') return null;
    await this.#commit(verdict === 'approve' ? { op: 'approveTopicRequest', id } : { op: 'removeTopicRequest', id });
    return verdict === 'approve' ? { ...request, status: 'pending' } : request;
  }

  async answerTopicRequest(id: string, answer: TopicRequestAnswer): Promise<TopicRequest | null> {
    const request = this.#state.topicRequests.find(id);
    if (!request) return null;
    const answered: TopicRequest = { ...request, status: answer.status, answerUrl: answer.status === 'answered' ? answer.answerUrl : null };
    await this.#commit({ op: 'answerTopicRequest', item: answered });
    return { ...answered };
  }

  async markReviewed(kind: 'bugReport' | 'citySubmission', id: string): Promise<boolean> {
    const item = (kind === 'bugReport' ? this.#state.bugReports : this.#state.citySubmissions).find(id);
    if (!item) return false;
    if (item.reviewedAt === null) await this.#commit({ op: 'reviewed', kind, id, reviewedAt: now() });
    return true;
  }

  async reviewQueue(): Promise<ReviewQueue> {
    const comments: StoredComment[] = [];
    for (const [id, slug] of this.#state.moderation.pending) {
      const comment = await this.getComment(slug, id);
      if (comment) comments.push(comment);
    }
    return {
      comments: comments.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)),
      topicRequests: this.#state.topicRequests
        .oldestFirst()
        .filter((request) => request.status === 'waiting' || request.status === 'pending'),
      bugReports: this.#state.bugReports.oldestFirst().filter((report) => report.reviewedAt === null),
      citySubmissions: this.#state.citySubmissions.oldestFirst().filter((submission) => submission.reviewedAt === null),
    };
  }

  async setBan(readerHash: string, banned: boolean): Promise<boolean> {
    if ((this.#state.bans.find(readerHash) !== null) === banned) return false;
    await this.#commit(banned ? { op: 'ban', item: newBan(readerHash) } : { op: 'unban', readerHash });
    return true;
  }

  async spendLink(link: SpentLink): Promise<boolean> {
    // Checked and applied with no await between: one process holds the store (lock.ts).
    if (this.#state.spentLinks.find(link.link) !== null) return false;
    await this.#commit({ op: 'spendLink', item: link, at: now() });
    return true;
  }

  linkSpent(link: string): Promise<boolean> {
    return Promise.resolve(this.#state.spentLinks.find(link) !== null);
  }

  async recentComments({ waiting, articleSlug, authorHash, before }: CommentFilter, limit: number): Promise<StoredComment[]> {
    const wanted = (comment: StoredComment) =>
      (waiting !== true || comment.status === 'pending') &&
      (authorHash === undefined || comment.authorHash === authorHash) &&
      (before === undefined || comment.createdAt < before);
    let newest: StoredComment[] = [];
    // A thread at a time, keeping only the newest: the desk never holds every comment at once.
    const threads = articleSlug === undefined ? this.#state.threads() : [await this.#state.article(articleSlug)];
    for await (const thread of threads) {
      if (!thread) continue;
      newest = [...newest, ...thread.comments().filter(wanted)].sort(newestFirst).slice(0, limit);
    }
    return newest;
  }

  async readersNamed(author: string): Promise<string[]> {
    const hashes = new Set<string>();
    for await (const thread of this.#state.threads())
      for (const comment of thread.comments()) if (comment.author === author) hashes.add(comment.authorHash);
    return [...hashes].sort();
  }

  async stats(): Promise<StoreStats> {
    // Counted a thread at a time: the owner's tool never holds every comment at once.
    let articles = 0;
    let comments = 0;
    let deletedComments = 0;
    let pendingComments = 0;
    let votes = 0;
    for await (const thread of this.#state.threads()) {
      const kept = thread.comments();
      if (kept.length > 0) articles += 1;
      comments += kept.length;
      deletedComments += kept.filter((comment) => comment.deletedAt !== null).length;
      pendingComments += kept.filter((comment) => comment.status === 'pending').length;
      votes += thread.votes().length;
    }
    const requests = this.#state.topicRequests.oldestFirst();
    const reviewed = (items: { reviewedAt: string | null }[]) => ({
      total: items.length,
      pending: items.filter((item) => item.reviewedAt === null).length,
    });
    return {
      articles,
      comments,
      deletedComments,
      pendingComments,
      votes,
      topicRequests: {
        waiting: requests.filter((request) => request.status === 'waiting').length,
        pending: requests.filter((request) => request.status === 'pending').length,
        answered: requests.filter((request) => request.status === 'answered').length,
        declined: requests.filter((request) => request.status === 'declined').length,
      },
      bugReports: reviewed(this.#state.bugReports.oldestFirst()),
      citySubmissions: reviewed(this.#state.citySubmissions.oldestFirst()),
      bans: this.#state.bans.size,
    };
  }

  async *exportRecords(): AsyncGenerator<ExportRecord> {
    const salt = await readSaltFile(this.#layout.salt);
    if (salt !== null) yield { kind: 'salt', salt };
    for await (const thread of this.#state.threads()) for (const comment of thread.comments()) yield { kind: 'comment', comment };
    // Every comment before the first vote: a vote on a comment is imported after it.
    for await (const thread of this.#state.threads())
      for (const { commentId, voter, vote } of thread.votes()) yield { kind: 'vote', articleSlug: thread.slug, commentId, voter, vote };
    for (const item of this.#state.topicRequests.oldestFirst()) yield { kind: 'topicRequest', item };
    for (const item of this.#state.bugReports.oldestFirst()) yield { kind: 'bugReport', item };
    for (const item of this.#state.citySubmissions.oldestFirst()) yield { kind: 'citySubmission', item };
    for (const { readerHash, since } of this.#state.bans.oldestFirst()) yield { kind: 'ban', readerHash, since };
    for (const spent of this.#state.spentLinks.oldestFirst()) yield { kind: 'spentLink', ...spent };
    // Claimed or not: a lease is this process's, and ends with it.
    for (const entry of this.#state.outbox.entries()) yield { kind: 'notification', entry };
  }

  async importRecords(records: AsyncIterable<ExportRecord> | Iterable<ExportRecord>): Promise<ImportCounts> {
    const counts: ImportCounts = { added: 0, skipped: 0 };
    let inFlight: Promise<void>[] = [];
    for await (const record of records) {
      const change = await this.#importChange(record);
      if (change === null) {
        counts.skipped += 1;
        continue;
      }
      counts.added += 1;
      if (change !== 'done') {
        // Committed before the next record is looked at: a reply finds its parent in memory.
        await this.#state.prepare(change);
        inFlight.push(this.#commit(change));
      }
      if (inFlight.length >= IMPORT_WINDOW) {
        await Promise.all(inFlight);
        inFlight = [];
      }
    }
    await Promise.all(inFlight);
    return counts;
  }

  claimNotifications(channel: NotificationChannel, limit: number, leaseMs: number): Promise<OutboxEntry[]> {
    // One process has the store open (lock.ts), so leases need only be kept in memory.
    const at = Date.now();
    const claimed = this.#state.outbox.due(channel, limit, at, (id) => (this.#leases.get(id) ?? 0) <= at);
    for (const { id } of claimed) this.#leases.set(id, at + leaseMs);
    return Promise.resolve(claimed);
  }

  async notificationsSent(entries: readonly OutboxKey[]): Promise<void> {
    const ids = entries.map(({ id }) => id);
    await this.#settle(ids, { op: 'outboxSent', ids });
  }

  async notificationsFailed(entries: readonly OutboxKey[], dueAt: string): Promise<void> {
    const ids = entries.map(({ id }) => id);
    await this.#settle(ids, { op: 'outboxFailed', ids, dueAt });
  }

  notificationsReleased(entries: readonly OutboxKey[]): Promise<void> {
    // Leases are kept in memory only: nothing to write.
    for (const { id } of entries) this.#leases.delete(id);
    return Promise.resolve();
  }

  /** Always this process's: one process at a time holds an embedded store (its lock). */
  emailTurn(): Promise<boolean> {
    return Promise.resolve(true);
  }

  outboxDepth(): Promise<Record<NotificationChannel, number>> {
    return Promise.resolve(this.#state.outbox.depth());
  }

  async #settle(ids: readonly string[], change: JournalChange): Promise<void> {
    for (const id of ids) this.#leases.delete(id);
    if (ids.length > 0) await this.#commit(change);
  }

  /** The names of a new record's outbox entries, one per channel this store notifies: the journal line holds these, and the entries are made from its record. */
  #outboxRefs(recordId: string): OutboxRef[] {
    return outboxRefsOf(recordId, this.#options.notificationChannels);
  }

  revision(topic: RevisionTopic): Promise<string> {
    return Promise.resolve(String(this.#revisions.get(topic) ?? 0));
  }

  ping(): Promise<void> {
    if (this.#closing) return Promise.reject(new Error('The store is closed.'));
    // A journal that failed a write refuses every later one until a restart.
    return this.#journal.failure ? Promise.reject(this.#journal.failure) : Promise.resolve();
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  /** The change that adds an imported record; null when it is there already, 'done' when it was kept otherwise (the salt). */
  async #importChange(record: ExportRecord): Promise<JournalChange | 'done' | null> {
    const state = this.#state;
    switch (record.kind) {
      case 'salt':
        if ((await readSaltFile(this.#layout.salt)) !== null) return null;
        await writeSaltFile(this.#layout.salt, record.salt);
        return 'done';
      case 'comment': {
        const { articleSlug, id, parentId, depth } = record.comment;
        const thread = await state.article(articleSlug);
        if (thread?.hasComment(id)) return null;
        const parentDepth = parentId === null ? 0 : thread?.comment(parentId)?.depth;
        if (parentDepth !== depth - 1) throw new Error(`Comment ${id} does not fit its thread: its parent is missing or not one level up`);
        // Scores come from the votes imported after it.
        return { op: 'comment', comment: { ...record.comment, score: 0 } };
      }
      case 'vote': {
        const { articleSlug, commentId, voter, vote } = record;
        const thread = await state.article(articleSlug);
        if (commentId !== null && !thread?.hasComment(commentId))
          throw new Error(`A vote is on comment ${commentId}, which is not in the import or the store`);
        return (thread?.voteOf(voter, commentId) ?? 0) !== 0 ? null : { op: 'vote', articleSlug, commentId, voter, vote };
      }
      case 'topicRequest':
        return state.topicRequests.find(record.item.id) ? null : { op: 'topicRequest', item: record.item };
      case 'bugReport':
        return state.bugReports.find(record.item.id) ? null : { op: 'bugReport', item: record.item };
      case 'citySubmission':
        return state.citySubmissions.find(record.item.id) ? null : { op: 'citySubmission', item: record.item };
      case 'ban':
        return state.bans.find(record.readerHash) ? null : { op: 'ban', item: { readerHash: record.readerHash, since: record.since } };
      case 'spentLink': {
        const { link, expiresAt } = record;
        return state.spentLinks.find(link) ? null : { op: 'spendLink', item: { link, expiresAt }, at: now() };
      }
      case 'notification':
        return state.outbox.has(record.entry.id) ? null : { op: 'outboxAdded', entry: record.entry };
    }
  }

  /** Commits a change once the thread it changes is in memory. */
  async #prepareAndCommit(change: JournalChange): Promise<void> {
    await this.#state.prepare(change);
    return this.#commit(change);
  }

  /** Numbers the change, applies it in memory and resolves once its journal line is on disk. */
  #commit(change: JournalChange): Promise<void> {
    if (this.#closing) return Promise.reject(new Error('The store is closed.'));
    if (this.#journal.failure) return Promise.reject(this.#journal.failure);
    const record: JournalRecord = { seq: ++this.#lastSeq, ...change };
    const topic = revisionTopicOf(change);
    for (const changed of this.#state.apply(record)) this.#changed.add(changed);
    if (topic) this.#revisions.set(topic, record.seq);
    if (topic?.startsWith('thread:')) this.#revisions.set('threads', record.seq);
    if (this.#journal.bytes >= Math.max(this.#options.compactAfterBytes, this.#lastSnapshotBytes)) this.#startCompaction();
    return this.#journal.append(`${JSON.stringify(record)}\n`);
  }

  /** Lets go of idle threads whose files hold all of them; never while snapshots are being written. */
  #unloadIdleThreads(): void {
    if (this.#compaction || this.#closing) return;
    this.#state.unloadIdle(this.#options.keptComments, (thread) => !this.#changed.has(thread));
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
    await this.#journal.rotate();
    this.#lastSnapshotBytes = await this.#writeSnapshots();
    await removeGenerationsBefore(this.#layout.journal, this.#journal.generation);
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
    await this.#journal.close();
    // After a failed journal write, memory may hold writes that were refused: keep the disk as it is.
    if (this.#journal.failure) throw this.#journal.failure;
    await this.#writeSnapshots();
    await removeGenerationsBefore(this.#layout.journal, this.#journal.generation + 1);
    this.#lock.release();
  }
}
