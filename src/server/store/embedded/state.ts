import { SLUG_PATTERN } from '../../articles/source.ts';
import type { BugReport, CitySubmission, SpentLink, StoredBan, StoredComment, TopicRequest } from '../types.ts';
import { ArticleThread } from './article-thread.ts';
import { Collection } from './collection.ts';
import { articleSlugOf, storedShapes, type JournalChange, type JournalRecord } from './documents.ts';
import { namesIn } from './files.ts';
import type { Notified, OutboxRef } from '../outbox.ts';
import { ARTICLE_FILE, articleFile, type StoreLayout } from './layout.ts';
import { DeliveryState, isDeliveryRecord } from './delivery-state.ts';
import { isMentionRecord, MentionState } from './mentions.ts';
import { isNewsletterRecord, NewsletterState } from './newsletter-state.ts';
import { OutboxQueue } from './outbox-queue.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

/**
 * Everything the embedded store holds. The collections stay in memory; an
 * article's thread is read from its snapshot file when first asked for and
 * let go again once it has been idle and its file holds all of it, so memory
 * follows the threads in use, not every comment ever stored.
 */
export class StoreState {
  readonly #layout: StoreLayout;
  /** Every article that has comments or votes, in memory or not. */
  readonly #slugs: Set<string>;
  /** The threads in memory, least recently used first. */
  readonly #threads = new Map<string, ArticleThread>();
  readonly #loading = new Map<string, Promise<ArticleThread>>();
  /** Threads asked for since the last `unloadIdle`: never let go by the next one. */
  readonly #recent = new Set<string>();
  readonly topicRequests: Collection<TopicRequest>;
  readonly bugReports: Collection<BugReport>;
  readonly citySubmissions: Collection<CitySubmission>;
  readonly bans: Collection<StoredBan>;
  readonly spentLinks: Collection<SpentLink>;
  readonly outbox: OutboxQueue;
  /** Appearances, subscribers and the newsletter's issues. */
  readonly newsletter: NewsletterState;
  /** The federation's deliveries. */
  readonly deliveries: DeliveryState;
  /** Webmentions received and sent. */
  readonly mentions: MentionState;
  /** What moderation asks of every thread, kept as they change: read from every snapshot file at open. */
  readonly moderation: ModerationIndex;
  /** The highest journal record any snapshot file holds. */
  readonly snapshotSeq: number;
  /** Where each reader's newest comment is, by their hash: read from its thread when asked for. */
  readonly #newestComments: NewestComments;
  /** When each thread's newest published comment was written (epoch ms; or later: a deletion leaves it), by slug. */
  readonly #lastPublished: LastPublished;

  private constructor(
    layout: StoreLayout,
    articles: {
      slugs: Set<string>;
      lastSeq: number;
      moderation: ModerationIndex;
      newestComments: NewestComments;
      lastPublished: LastPublished;
    },
    collections: {
      topicRequests: Collection<TopicRequest>;
      bugReports: Collection<BugReport>;
      citySubmissions: Collection<CitySubmission>;
      bans: Collection<StoredBan>;
      spentLinks: Collection<SpentLink>;
      outbox: OutboxQueue;
      newsletter: NewsletterState;
      deliveries: DeliveryState;
      mentions: MentionState;
    },
  ) {
    this.#layout = layout;
    this.#slugs = articles.slugs;
    this.moderation = articles.moderation;
    this.#newestComments = articles.newestComments;
    this.#lastPublished = articles.lastPublished;
    this.topicRequests = collections.topicRequests;
    this.bugReports = collections.bugReports;
    this.citySubmissions = collections.citySubmissions;
    this.bans = collections.bans;
    this.spentLinks = collections.spentLinks;
    this.outbox = collections.outbox;
    this.newsletter = collections.newsletter;
    this.deliveries = collections.deliveries;
    this.mentions = collections.mentions;
    this.snapshotSeq = Math.max(articles.lastSeq, ...this.#collections().map((collection) => collection.journalSeq));
  }

  /**
   * Reads every snapshot file, one at a time, and keeps the collections;
   * rejects naming the first damaged file, so that a damaged store stops
   * start-up rather than a request.
   */
  static async load(layout: StoreLayout): Promise<StoreState> {
    const slugs = (await namesIn(layout.articles)).map((name) => ARTICLE_FILE.exec(name)?.[1]).filter((slug) => slug !== undefined);
    let lastSeq = 0;
    const moderation: ModerationIndex = { publishedAuthors: new Set(), pending: new Map(), remote: new Map() };
    const newestComments: NewestComments = new Map();
    const lastPublished: LastPublished = new Map();
    for (const slug of slugs) {
      const thread = await ArticleThread.load(articleFile(layout, slug), slug);
      lastSeq = Math.max(lastSeq, thread.journalSeq);
      thread.forEachComment((comment) => {
        noteModeration(moderation, comment);
        noteNewest(newestComments, comment);
        noteLastPublished(lastPublished, comment);
      });
    }
    return new StoreState(
      layout,
      { slugs: new Set(slugs), lastSeq, moderation, newestComments, lastPublished },
      {
        topicRequests: await Collection.load(layout.topicRequests, storedShapes.topicRequest, byId),
        bugReports: await Collection.load(layout.bugReports, storedShapes.bugReport, byId),
        citySubmissions: await Collection.load(layout.citySubmissions, storedShapes.citySubmission, byId),
        bans: await Collection.load(layout.bans, storedShapes.ban, (ban) => ban.readerHash),
        spentLinks: await Collection.load(layout.spentLinks, storedShapes.spentLink, (spent) => spent.link),
        outbox: await OutboxQueue.load(layout.outbox),
        newsletter: await NewsletterState.load(layout),
        deliveries: await DeliveryState.load(layout),
        mentions: await MentionState.load(layout),
      },
    );
  }

  #collections(): SnapshotTarget[] {
    return [
      this.topicRequests,
      this.bugReports,
      this.citySubmissions,
      this.bans,
      this.spentLinks,
      this.outbox,
      ...this.newsletter.targets,
      this.deliveries.deliveries,
      this.mentions.mentions,
    ];
  }

  /** Where the reader's newest comment is; undefined when they wrote none. */
  newestCommentOf(authorHash: string): CommentPlace | undefined {
    return this.#newestComments.get(authorHash);
  }

  /**
   * The threads of `slugs` that have a published comment, the one with the
   * newest first, each with when that comment was written or later: a reader
   * of the newest comments of many threads reads threads in this order and
   * stops at the first that can hold none newer than those it has.
   */
  threadsByLastPublished(slugs: readonly string[]): { slug: string; lastPublished: number }[] {
    return slugs
      .flatMap((slug) => {
        const lastPublished = this.#lastPublished.get(slug);
        return lastPublished === undefined ? [] : [{ slug, lastPublished }];
      })
      .sort((a, b) => b.lastPublished - a.lastPublished);
  }

  /**
   * The article's thread when no file need be read for it: null when nothing
   * was ever stored for it, undefined when it is not in memory (`article` reads it).
   */
  articleAtHand(slug: string): ArticleThread | null | undefined {
    // Only known threads are remembered as asked for: a made-up slug adds nothing to memory.
    if (!this.#slugs.has(slug)) return null;
    this.#recent.add(slug);
    const thread = this.#threads.get(slug);
    if (!thread) return undefined;
    // Most recently used last.
    this.#threads.delete(slug);
    this.#threads.set(slug, thread);
    return thread;
  }

  /** The article's thread, read from its file when it is not in memory; null when nothing was ever stored for it. */
  article(slug: string): Promise<ArticleThread | null> {
    const atHand = this.articleAtHand(slug);
    if (atHand !== undefined) return Promise.resolve(atHand);
    let loading = this.#loading.get(slug);
    if (!loading) {
      loading = ArticleThread.load(articleFile(this.#layout, slug), slug).then(
        (loaded) => {
          this.#loading.delete(slug);
          this.#threads.set(slug, loaded);
          return loaded;
        },
        (error: unknown) => {
          this.#loading.delete(slug);
          throw error;
        },
      );
      this.#loading.set(slug, loading);
    }
    return loading;
  }

  /** The article's thread, started empty when there is none. Throws when `slug` is not a slug (it names a file). */
  async articleToWrite(slug: string): Promise<ArticleThread> {
    return (await this.article(slug)) ?? this.#threadInMemory(slug);
  }

  /** Brings into memory the thread a journal record (or a change about to become one) changes, if any. */
  async prepare(change: JournalChange): Promise<void> {
    const slug = articleSlugOf(change);
    if (slug !== null) await this.articleToWrite(slug);
  }

  /**
   * Every article's thread in turn, for the owner's tool: the one in memory,
   * or one read from its file for the moment, which stays out of memory.
   */
  async *threads(): AsyncGenerator<ArticleThread> {
    for (const slug of [...this.#slugs]) {
      yield this.#threads.get(slug) ?? (await (this.#loading.get(slug) ?? ArticleThread.load(articleFile(this.#layout, slug), slug)));
    }
  }

  /**
   * Lets go of threads idle since the last call, least recently used first,
   * while more than `keptComments` comments are in memory; a thread whose
   * file lags behind it (`isSaved` false) stays.
   */
  unloadIdle(keptComments: number, isSaved: (thread: ArticleThread) => boolean): void {
    let inMemory = 0;
    for (const thread of this.#threads.values()) inMemory += thread.commentCount;
    for (const [slug, thread] of this.#threads) {
      if (inMemory <= keptComments) break;
      if (this.#recent.has(slug) || !isSaved(thread)) continue;
      this.#threads.delete(slug);
      inMemory -= thread.commentCount;
    }
    this.#recent.clear();
  }

  /** The thread a journal record changes, which must be in memory (or new): `apply` is synchronous. */
  #threadInMemory(slug: string): ArticleThread {
    const thread = this.#threads.get(slug);
    if (thread) return thread;
    if (this.#slugs.has(slug)) throw new Error(`The thread of "${slug}" is not in memory`);
    if (!SLUG_PATTERN.test(slug)) throw new Error(`Not an article slug: ${JSON.stringify(slug)}`);
    const started = ArticleThread.empty(articleFile(this.#layout, slug), slug);
    this.#threads.set(slug, started);
    this.#slugs.add(slug);
    return started;
  }

  /**
   * Applies a journal record and returns the states it changed: none when
   * their snapshots already hold it (only when replaying). Throws when the
   * record does not fit the state (a vote on a missing comment, a duplicate id).
   */
  apply(record: JournalRecord): SnapshotTarget[] {
    return [this.#applyChange(record), this.#addOutboxEntries(record)].filter((state) => state !== null);
  }

  /**
   * The outbox entries a journal record brings: any it holds whole, and
   * those it names, made from its record (one the owner is told of).
   */
  #addOutboxEntries(record: JournalRecord): SnapshotTarget | null {
    if (!('outbox' in record) || !record.outbox || record.outbox.length === 0) return null;
    const { outbox } = record;
    const notified = notifiedBy(record);
    // A comment's entries hold the copy its thread made of it just now, kept anyway, rather than the record's (a
    // parser's object, larger); not a later version that a replayed thread's snapshot holds.
    const thread = notified?.kind === 'comment' ? this.#threads.get(notified.record.articleSlug) : undefined;
    if (notified?.kind === 'comment' && thread && record.seq > thread.journalSeq)
      notified.record = thread.kept(notified.record.id) ?? notified.record;
    return changed(this.outbox, record.seq, (queue) => {
      const named: OutboxRef[] = [];
      for (const entry of outbox) {
        if ('notification' in entry) queue.addWhole(entry);
        else named.push(entry);
      }
      if (notified) queue.add(notified, named);
    });
  }

  #applyChange(record: JournalRecord): SnapshotTarget | null {
    if (isNewsletterRecord(record)) return this.newsletter.apply(record);
    if (isDeliveryRecord(record)) return this.deliveries.apply(record);
    if (isMentionRecord(record)) return this.mentions.apply(record);
    switch (record.op) {
      case 'comment':
      case 'vote':
      case 'deleteComment':
      case 'editComment':
      case 'approveComment':
      case 'removeComment':
      case 'reaction':
        return this.#applyThreadChange(record);
      case 'topicRequest':
        return added(this.topicRequests, record.seq, record.item);
      case 'bugReport':
        return added(this.bugReports, record.seq, record.item);
      case 'citySubmission':
        return added(this.citySubmissions, record.seq, record.item);
      case 'answerTopicRequest':
        return changed(this.topicRequests, record.seq, (requests) => {
          requests.replace(record.item);
        });
      case 'approveTopicRequest':
        return changed(this.topicRequests, record.seq, (requests) => {
          const request = requests.find(record.id);
          if (!request) throw new Error(`${record.id} does not exist`);
          requests.replace({ ...request, status: 'pending' });
        });
      case 'removeTopicRequest':
        return changed(this.topicRequests, record.seq, (requests) => {
          requests.remove(record.id);
        });
      case 'reviewed':
        return record.kind === 'bugReport'
          ? changed(this.bugReports, record.seq, (items) => {
              markReviewed(items, record.id, record.reviewedAt);
            })
          : changed(this.citySubmissions, record.seq, (items) => {
              markReviewed(items, record.id, record.reviewedAt);
            });
      case 'ban':
        return added(this.bans, record.seq, record.item);
      case 'unban':
        return changed(this.bans, record.seq, (bans) => {
          bans.remove(record.readerHash);
        });
      case 'spendLink':
        return changed(this.spentLinks, record.seq, (spent) => {
          for (const { link, expiresAt } of spent.oldestFirst()) if (Date.parse(expiresAt) <= Date.parse(record.at)) spent.remove(link);
          spent.add(record.item);
        });
      case 'outboxSent':
        return changed(this.outbox, record.seq, (outbox) => {
          for (const id of record.ids) outbox.remove(id);
        });
      case 'outboxAdded':
        return changed(this.outbox, record.seq, (outbox) => {
          outbox.addWhole(record.entry);
        });
      case 'outboxFailed':
        return changed(this.outbox, record.seq, (outbox) => {
          for (const id of record.ids) outbox.failed(id, record.dueAt);
        });
    }
  }

  /** A change to one article's thread, unless its snapshot holds it already. */
  #applyThreadChange(record: Extract<JournalRecord, { op: ThreadOp }>): SnapshotTarget | null {
    const thread = this.#threadInMemory(record.op === 'comment' ? record.comment.articleSlug : record.articleSlug);
    if (record.seq <= thread.journalSeq) return null;
    switch (record.op) {
      case 'comment':
        thread.addComment(record.comment);
        noteModeration(this.moderation, record.comment);
        noteNewest(this.#newestComments, record.comment);
        noteLastPublished(this.#lastPublished, record.comment);
        break;
      case 'vote':
        thread.setVote(record.voter, record.commentId, record.vote);
        break;
      case 'deleteComment':
        thread.deleteComment(record.commentId, record.deletedAt);
        break;
      case 'editComment':
        thread.editComment(record.commentId, record.body);
        break;
      case 'approveComment': {
        const approved = thread.approveComment(record.commentId);
        noteModeration(this.moderation, approved);
        noteLastPublished(this.#lastPublished, approved);
        this.moderation.pending.delete(record.commentId);
        break;
      }
      case 'removeComment':
        thread.removePendingComment(record.commentId);
        this.moderation.pending.delete(record.commentId);
        this.moderation.remote.delete(record.commentId);
        break;
      case 'reaction':
        thread.setReaction({ kind: record.kind, actorId: record.actorId, at: record.at }, record.on);
        break;
    }
    return thread;
  }
}

/** The journal operations that change one article's thread. */
type ThreadOp = 'comment' | 'vote' | 'deleteComment' | 'editComment' | 'approveComment' | 'removeComment' | 'reaction';

/**
 * The readers with a comment ever published (MODERATION=first lets theirs
 * through), and the pending comments, by id, with their article: both over
 * every thread, in memory or not.
 */
export interface ModerationIndex {
  publishedAuthors: Set<string>;
  pending: Map<string, string>;
  /** The comments remote posts became, by id: their article's slug. */
  remote: Map<string, string>;
}

function noteModeration({ publishedAuthors, pending, remote }: ModerationIndex, comment: Readonly<StoredComment>): void {
  if (comment.status === 'published') publishedAuthors.add(comment.authorHash);
  else pending.set(comment.id, comment.articleSlug);
  if (comment.remote) remote.set(comment.id, comment.articleSlug);
}

/** A comment's place: its article and id. */
interface CommentPlace {
  articleSlug: string;
  id: string;
  createdAt: string;
}

type NewestComments = Map<string, CommentPlace>;

type LastPublished = Map<string, number>;

function noteLastPublished(last: LastPublished, { articleSlug, createdAt, status }: Readonly<StoredComment>): void {
  const at = Date.parse(createdAt);
  if (status === 'published' && at > (last.get(articleSlug) ?? -Infinity)) last.set(articleSlug, at);
}

/** Keeps `comment` as its reader's newest unless a later one is known (an import may bring older ones after it). */
function noteNewest(newest: NewestComments, { authorHash, articleSlug, id, createdAt }: StoredComment): void {
  const known = newest.get(authorHash);
  if (known === undefined || Date.parse(createdAt) >= Date.parse(known.createdAt)) newest.set(authorHash, { articleSlug, id, createdAt });
}

function markReviewed<Item extends { id: string; reviewedAt: string | null }>(
  items: Collection<Item>,
  id: string,
  reviewedAt: string,
): void {
  const item = items.find(id);
  if (!item) throw new Error(`${id} does not exist`);
  items.replace({ ...item, reviewedAt });
}

function byId(item: { id: string }): string {
  return item.id;
}

/** The record a journal line adds that the owner is told of, if any. */
function notifiedBy(record: JournalRecord): Notified | null {
  switch (record.op) {
    case 'comment':
      return { kind: 'comment', record: record.comment };
    case 'topicRequest':
      return { kind: 'topicRequest', record: record.item };
    case 'bugReport':
      return { kind: 'bugReport', record: record.item };
    case 'citySubmission':
      return { kind: 'citySubmission', record: record.item };
    default:
      return null;
  }
}

function added<Item extends object>(collection: Collection<Item>, seq: number, item: Item): SnapshotTarget | null {
  return changed(collection, seq, (items) => {
    items.add(item);
  });
}

/** Applies a change to a collection (or the outbox) unless its snapshot already holds it. */
function changed<Target extends SnapshotTarget>(collection: Target, seq: number, change: (items: Target) => void): SnapshotTarget | null {
  if (seq <= collection.journalSeq) return null;
  change(collection);
  return collection;
}
