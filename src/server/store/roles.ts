import type { LanguageCode } from '../../i18n/languages.ts';
import type {
  Appearance,
  AppearanceConsumer,
  RecordedAppearances,
  VisibleTranslation,
  ArticleTranslation,
  DeliveredActivity,
  Delivery,
  DeliveryKey,
  DeliveryOutcome,
  Mention,
  MentionKey,
  IssueKey,
  NewsletterIssue,
  Subscriber,
  CastVote,
  CommentFilter,
  ExportRecord,
  Follower,
  ImportCounts,
  InstanceBlock,
  NewBugReport,
  NewCitySubmission,
  NewComment,
  NewFollower,
  NewReaction,
  ReactionCounts,
  NewTopicRequest,
  NotificationChannel,
  OutboxEntry,
  OutboxKey,
  ReviewQueue,
  RevisionTopic,
  SpentLink,
  StoredComment,
  StoreStats,
  TopicRequest,
  TopicRequestAnswer,
  BugReport,
  CitySubmission,
  VoteTarget,
  VoteValue,
} from './types.ts';

/**
 * The store's roles: what its callers use, one interface each, so that a
 * caller is typed against the role it needs. Every engine implements them
 * all (StoreEngine), a file per role (docs/architecture.md, "The store's
 * roles").
 */

/** A voter's votes on an article and on its comments (only those voted on). */
export interface Votes {
  article: VoteValue;
  comments: Record<string, CastVote>;
}

/** The articles' threads: comments and votes as readers write and read them, and the revisions of cached renders. */
export interface ThreadStore {
  /** Stores a comment; resolves only once it is durable (on disk, or committed). */
  insertComment(comment: NewComment): Promise<StoredComment>;
  /** A comment of an article, published or pending. */
  getComment(articleSlug: string, id: string): Promise<StoredComment | null>;
  /**
   * The comment a remote post became (src/server/federation/replies.ts), by
   * its id, published or pending; null when none did. As cheap as a lookup
   * whatever the id: the fediverse sends Deletes of posts never seen here.
   */
  remoteComment(id: string): Promise<StoredComment | null>;
  /**
   * Replaces the text of the comment a remote post became, as its author
   * edited the post (an `Update`); a deleted one stays deleted. Null when no
   * remote post became a comment of this id.
   */
  editRemoteComment(id: string, body: string): Promise<StoredComment | null>;
  /** Every published comment of an article, oldest first: what readers see, never a pending one. */
  listComments(articleSlug: string): Promise<StoredComment[]>;
  /**
   * The newest `limit` published comments of the threads of `articleSlugs`,
   * newest first, deleted ones left out: what a feed of those threads
   * carries. Costs what those comments cost, not what the threads hold.
   */
  latestComments(articleSlugs: readonly string[], limit: number): Promise<StoredComment[]>;
  /**
   * Whether a comment of this reader was ever published: posted when it
   * needed no approval, or approved. A deletion does not undo it.
   */
  everPublished(readerHash: string): Promise<boolean>;
  /** The reader's newest comment, on any article (deleted ones too); null when they wrote none. */
  latestCommentBy(authorHash: string): Promise<StoredComment | null>;
  /** The article's own score (ups minus downs of the votes on the article itself); 0 when none. */
  articleScore(articleSlug: string): Promise<number>;
  /**
   * Keeps (`on`) or removes a remote actor's like or boost of an article,
   * durable before it resolves, and moves the thread's revision when it
   * changed anything: true then.
   */
  setReaction(reaction: NewReaction, on: boolean): Promise<boolean>;
  /** How many remote actors like and boost the article. */
  reactionCounts(articleSlug: string): Promise<ReactionCounts>;
  /**
   * Reads this voter's current vote on the target, lets `decide` choose the
   * next one, stores it and updates the target's score, all as one atomic step
   * for that (target, voter), durable before it resolves. Null when the
   * target comment does not exist.
   */
  applyVote(
    target: VoteTarget,
    voter: string,
    decide: (current: VoteValue) => VoteValue,
  ): Promise<{ score: number; vote: VoteValue } | null>;
  /**
   * This voter's votes on an article and on its comments (only those voted
   * on): at once where the engine holds the thread in memory, a promise
   * otherwise.
   */
  votesOf(articleSlug: string, voter: string): Votes | Promise<Votes>;
  /**
   * A token that changes whenever what `topic` covers changes, in this process
   * or any other sharing the store: a cached render is kept under it and
   * replaced as soon as it differs. Cheap, so it can be asked for every read.
   */
  revision(topic: RevisionTopic): Promise<string>;
}

/** What readers send besides comments and votes: topic requests, bug reports, city submissions. */
export interface SubmissionStore {
  insertTopicRequest(request: NewTopicRequest): Promise<TopicRequest>;
  /** Newest first, those waiting for approval left out: what readers see, never a waiting one. */
  listTopicRequests(): Promise<TopicRequest[]>;
  insertBugReport(report: NewBugReport): Promise<BugReport>;
  insertCitySubmission(submission: NewCitySubmission): Promise<CitySubmission>;
}

/** The owner's operations (the desk, moderation links, npm run data), and the ban check every write makes. */
export interface ModerationStore {
  /** Whether the owner banned this reader (until an unban). */
  isBanned(readerHash: string): Promise<boolean>;
  /** A comment by id alone, on whichever article, published or pending; null when there is none. */
  findComment(id: string): Promise<StoredComment | null>;
  /** Empties the comment's body and marks it deleted; its replies stay. Null when there is no such comment. */
  deleteComment(id: string): Promise<StoredComment | null>;
  /** The newest `limit` comments that `filter` lets through, across articles, deleted ones included. */
  recentComments(filter: CommentFilter, limit: number): Promise<StoredComment[]>;
  /** Publishes a pending comment, as it was written; null when no comment with this id is pending. */
  approveComment(id: string): Promise<StoredComment | null>;
  /** Removes a pending comment outright (no one saw it; it has no reply); null when no comment with this id is pending. */
  removePendingComment(id: string): Promise<StoredComment | null>;
  /**
   * The owner's verdict on a topic request waiting for approval: `approve`
   * lists it (pending), `remove` deletes it outright (no reader saw it). Null
   * when no topic request with this id waits.
   */
  moderateTopicRequest(id: string, verdict: 'approve' | 'remove'): Promise<TopicRequest | null>;
  /** Null when there is no such topic request. */
  answerTopicRequest(id: string, answer: TopicRequestAnswer): Promise<TopicRequest | null>;
  /** Takes a bug report or a city submission off the review queue; false when there is no such item. */
  markReviewed(kind: 'bugReport' | 'citySubmission', id: string): Promise<boolean>;
  reviewQueue(): Promise<ReviewQueue>;
  /** Bans (true) or unbans (false) a reader; false when nothing changed. */
  setBan(readerHash: string, banned: boolean): Promise<boolean>;
  /**
   * Spends a moderation link, at most once across every process sharing the
   * store: true when this call spent it, false when it was spent already.
   * Spent links whose `expiresAt` has passed may be dropped meanwhile.
   */
  spendLink(link: SpentLink): Promise<boolean>;
  /** Whether a moderation link was spent (and not dropped since its expiry). */
  linkSpent(link: string): Promise<boolean>;
  /** The hashes of the readers whose comments show this colour-and-animal name. */
  readersNamed(author: string): Promise<string[]>;
  stats(): Promise<StoreStats>;
}

/** The notifications waiting to be sent to the owner, for the senders (src/server/notifications/). */
export interface OutboxStore {
  /**
   * Takes up to `limit` due entries of a channel, oldest first, for
   * `leaseMs`: no other caller (in this process or another sharing the store)
   * gets them until they are settled or the lease runs out, so that a sender
   * that dies leaves them to the next one.
   */
  claimNotifications(channel: NotificationChannel, limit: number, leaseMs: number): Promise<OutboxEntry[]>;
  /**
   * Takes or renews the turn to send the owner's emails, for `leaseMs`: true
   * when `holder` has it. One sender at a time groups every instance's
   * notifications into one email an interval.
   */
  emailTurn(holder: string, leaseMs: number): Promise<boolean>;
  /** Removes sent entries from the outbox. */
  notificationsSent(entries: readonly OutboxKey[]): Promise<void>;
  /** Gives failed entries back, one attempt more, due again at `dueAt` (ISO 8601). */
  notificationsFailed(entries: readonly OutboxKey[], dueAt: string): Promise<void>;
  /**
   * Gives claimed entries back as they were, no attempt counted: their lease
   * ends, so that they are due again at once (a stopping sender's, for the
   * next start or another instance).
   */
  notificationsReleased(entries: readonly OutboxKey[]): Promise<void>;
  /** How many entries wait in the outbox, per channel. */
  outboxDepth(): Promise<Record<NotificationChannel, number>>;
}

/**
 * The followers of the publication's actors, one actor a language
 * (src/server/federation/): what the inbox stores on a Follow and removes on
 * its Undo, and what the followers collection and a delivery read; and the
 * instances the owner blocked, whose actors follow nothing here.
 */
export interface FollowerStore {
  /**
   * Keeps a remote actor as a follower of the language's actor, durable
   * before it resolves; a follow again replaces its inboxes and keeps when
   * it first followed. True when it was not a follower yet.
   */
  addFollower(follower: NewFollower): Promise<boolean>;
  /** Removes a follower of the language's actor; false when it was none. */
  removeFollower(lang: Follower['lang'], actorId: string): Promise<boolean>;
  /** Up to `limit` followers of the language's actor from the `offset`th, oldest first (then by actor id). */
  listFollowers(lang: Follower['lang'], offset: number, limit: number): Promise<Follower[]>;
  /** How many follow the language's actor. */
  followerCount(lang: Follower['lang']): Promise<number>;
  /**
   * Blocks an instance: `host` and every host under it. Their followers are
   * removed in the same durable step. True when it was not blocked yet.
   */
  blockInstance(host: string): Promise<boolean>;
  /** Lifts the block of `host` itself; false when it was not blocked. */
  unblockInstance(host: string): Promise<boolean>;
  /** Every blocked instance, by host name. */
  blockedInstances(): Promise<InstanceBlock[]>;
  /** Whether `host` is blocked, itself or by a domain above it: asked for each activity that comes in or goes out. */
  isInstanceBlocked(host: string): Promise<boolean>;
}

/**
 * Article translations as they become visible (src/server/appearances/),
 * each recorded once across every process sharing the store and handed once
 * to each of its consumers.
 */
/**
 * The federation's deliveries (src/server/federation/deliverer.ts): each
 * activity of a language's actor for each remote inbox, queued once,
 * claimed under a lease by whichever instance is free, settled for good.
 */
export interface DeliveryStore {
  /**
   * Queues `activity` for each of `inboxes`, due at once; one queued before,
   * settled or not, stays as it is. Resolves with how many were queued.
   */
  queueDeliveries(activity: DeliveredActivity, inboxes: readonly string[]): Promise<number>;
  /**
   * Takes up to `limit` due deliveries not settled, oldest first, for
   * `leaseMs`: no other caller (in this process or another sharing the
   * store) gets them until they are settled or the lease runs out.
   */
  claimDeliveries(limit: number, leaseMs: number): Promise<Delivery[]>;
  /** Settles deliveries for good: kept, so that they are never queued again. */
  deliveriesSettled(deliveries: readonly DeliveryKey[], outcome: DeliveryOutcome): Promise<void>;
  /** Gives failed deliveries back, one attempt more, due again at `dueAt` (ISO 8601). */
  deliveriesFailed(deliveries: readonly DeliveryKey[], dueAt: string): Promise<void>;
  /** Gives claimed deliveries back as they were: due again at once. */
  deliveriesReleased(deliveries: readonly DeliveryKey[]): Promise<void>;
  /**
   * Forgets the deliveries settled before `settledBefore` (ISO 8601), which
   * nothing queues again by then: one a follower and article otherwise stays
   * for good. Resolves with how many were forgotten.
   */
  pruneDeliveries(settledBefore: string): Promise<number>;
}

/**
 * Webmentions (src/server/federation/webmention/), received and sent, one
 * per source and target: the work due on each (a source to verify, a
 * mention to send) claimed under a lease by whichever instance is free. A
 * change to a received one moves its article's thread's revision.
 */
export interface MentionStore {
  /** Keeps `mention`, durable before it resolves, unless one of its source and target is kept: true when it kept it. */
  addMention(mention: Mention): Promise<boolean>;
  /**
   * Puts `mention` in the place of the one of its source and target, ending any claim on it; false when there is
   * none. A received one verified for the first time (unverified, now waiting or published) puts the owner's
   * notification in the outbox, in the same durable write (outbox.ts, firstVerification); nothing else does.
   */
  replaceMention(mention: Mention): Promise<boolean>;
  /** Removes the mention of this source and target; false when there was none. */
  removeMention(key: MentionKey): Promise<boolean>;
  findMention(key: MentionKey): Promise<Mention | null>;
  /** The mentions received for the article (any translation), oldest first. */
  mentionsOf(articleSlug: string): Promise<Mention[]>;
  /** Every mention kept, received and sent, oldest first: for the owner. */
  listMentions(): Promise<Mention[]>;
  /** Takes up to `limit` due mentions, oldest due first, for `leaseMs`: no other caller gets them meanwhile. */
  claimMentions(limit: number, leaseMs: number): Promise<Mention[]>;
}

export interface AppearanceStore {
  /**
   * Records what changed since the last call, `visible` being every
   * translation visible now (records.ts, appearanceWrites): new appearances,
   * updates (another digest) and withdrawals (no longer visible), each a
   * new version waiting for `consumers`, once however many processes record
   * at once. When the store holds no appearance yet, `visible` is recorded
   * as a baseline waiting for no consumer: what was visible before
   * appearances were recorded is never handed on. Resolves with the
   * versions this call recorded, and whether a change was left for later
   * because the version before it still waits for a consumer.
   */
  recordAppearances(visible: readonly VisibleTranslation[], consumers: readonly AppearanceConsumer[]): Promise<RecordedAppearances>;
  /** Up to `limit` appearances whose version is still to be handed to `consumer`, oldest first. */
  appearancesWaiting(consumer: AppearanceConsumer, limit: number): Promise<Appearance[]>;
  /**
   * Marks appearances handed to `consumer`, which has done all it does with
   * their version: they no longer wait for it. A consumer that dies before
   * this call is handed them again, so what it does with one must be done
   * once however often it is handed.
   */
  appearancesHanded(consumer: AppearanceConsumer, handed: readonly ArticleTranslation[]): Promise<void>;
  /** The appearance of a translation, whatever its version; null when none was recorded. */
  findAppearance(translation: ArticleTranslation): Promise<Appearance | null>;
}

/** The newsletter's subscribers and the queue of its emails (src/server/newsletter/). */
export interface NewsletterStore {
  /**
   * The subscription of `email` (trimmed and lower-cased), added pending in
   * `lang` when there is none, and whether a confirmation is to be sent now:
   * when it was added, or when its last one went `quietMs` or more ago (its
   * time is then set to now, by one caller only however many ask at once).
   */
  askSubscription(email: string, lang: LanguageCode, quietMs: number): Promise<{ subscriber: Subscriber; confirm: boolean }>;
  /** A subscriber by id; null when there is none. */
  subscriber(id: string): Promise<Subscriber | null>;
  /** The subscriber of `email` (trimmed and lower-cased, as askSubscription keeps it), pending or confirmed; null when there is none. */
  subscriberByAddress(email: string): Promise<Subscriber | null>;
  /** Sets the language a subscriber's next issues are sent in; null when there is none. */
  changeSubscriberLanguage(id: string, lang: LanguageCode): Promise<Subscriber | null>;
  /** Confirms a subscription (a confirmed one stays as it is); null when there is none. */
  confirmSubscriber(id: string): Promise<Subscriber | null>;
  /** Forgets a subscriber and the issues not sent to it; false when there was none. */
  removeSubscriber(id: string): Promise<boolean>;
  /** Forgets the pending subscriptions asked for before `before` (ISO 8601); resolves with how many. */
  forgetUnconfirmed(before: string): Promise<number>;
  /** The confirmed subscribers whose language is one of `langs`. */
  confirmedSubscribers(langs: readonly LanguageCode[]): Promise<Subscriber[]>;
  /**
   * Queues the issue of `appearance` for each of `subscriberIds`, due at
   * once; one queued before, sent or not, stays as it is. Resolves with how
   * many were queued.
   */
  queueIssues(appearance: ArticleTranslation, subscriberIds: readonly string[]): Promise<number>;
  /**
   * Takes up to `limit` due issues not sent, oldest first, for `leaseMs`: no
   * other caller gets them until they are settled or the lease runs out.
   */
  claimIssues(limit: number, leaseMs: number): Promise<NewsletterIssue[]>;
  /** Marks issues sent: kept, so that they are never queued again while their appearance may be handed again. */
  issuesSent(issues: readonly IssueKey[]): Promise<void>;
  /** Gives failed issues back, one attempt more, due again at `dueAt` (ISO 8601). */
  issuesFailed(issues: readonly IssueKey[], dueAt: string): Promise<void>;
  /** Gives claimed issues back as they were: due again at once. */
  issuesReleased(issues: readonly IssueKey[]): Promise<void>;
  /** Takes or renews the turn to send the newsletter, for `leaseMs`: true when `holder` has it. One sender at a time keeps to the rate. */
  newsletterTurn(holder: string, leaseMs: number): Promise<boolean>;
  /**
   * Forgets the issues sent before `sentBefore` (ISO 8601): an appearance is
   * handed again only after a crash between queueing and handing, minutes,
   * and every subscriber times every article would otherwise be kept for
   * good. Resolves with how many were forgotten.
   */
  pruneIssues(sentBefore: string): Promise<number>;
}

/** Everything a store holds as a stream of records, out and in (npm run data -- export | import, the desk's export). */
export interface TransferStore {
  /** Everything stored, streamed, in an order `importRecords` accepts. */
  exportRecords(): AsyncIterable<ExportRecord>;
  /** Adds what is not there yet (by id; votes by voter and target), so importing twice changes nothing. Scores follow the votes. */
  importRecords(records: AsyncIterable<ExportRecord> | Iterable<ExportRecord>): Promise<ImportCounts>;
}

/** The store as the process holds it: its salt, whether it takes writes, its closing. */
export interface StoreLifecycle {
  /**
   * The IP-hash salt kept with the store, made by `make` the first time, so
   * that every process sharing the store names a reader alike.
   */
  keptSalt(make: () => string): Promise<string>;
  /**
   * The secret kept under `name` (secretName in shapes.ts), made by `make`
   * the first time, so that every process sharing the store signs alike
   * (the federation's key pairs). Exported and imported as the salt is.
   */
  keptSecret(name: string, make: () => string | Promise<string>): Promise<string>;
  /**
   * Resolves when the store can take a write now, rejects when it cannot:
   * the embedded store while it is open and its journal writes, PostgreSQL
   * when one of the site's connections answers `SELECT 1`. No time limit of
   * its own: the caller bounds the wait (readiness, src/server/health/).
   */
  ping(): Promise<void>;
  /** Flushes what is pending and releases files or connections. */
  close(): Promise<void>;
}

/**
 * The store interface every engine implements (the embedded journaled store
 * and PostgreSQL): every role at once. Engines keep data; the rules
 * (threading, the vote toggle) live once in the service above them
 * (src/server/store/service.ts).
 */
export interface StoreEngine
  extends
    ThreadStore,
    SubmissionStore,
    ModerationStore,
    OutboxStore,
    FollowerStore,
    DeliveryStore,
    MentionStore,
    AppearanceStore,
    NewsletterStore,
    TransferStore,
    StoreLifecycle {}

/** The objects an engine is made of, one per role. */
export interface EngineRoles {
  threads: ThreadStore;
  submissions: SubmissionStore;
  moderation: ModerationStore;
  outbox: OutboxStore;
  followers: FollowerStore;
  deliveries: DeliveryStore;
  mentions: MentionStore;
  appearances: AppearanceStore;
  newsletter: NewsletterStore;
  transfer: TransferStore;
  lifecycle: StoreLifecycle;
}

/**
 * An engine made of its roles' objects: each role's methods (those of its
 * class), bound to that object, so that a call costs what it costs on the
 * role itself. Throws when two roles name the same method.
 */
export function engineOf(roles: EngineRoles): StoreEngine {
  const engine: Record<string, unknown> = {};
  for (const role of Object.values(roles) as object[]) {
    const methods = Object.getPrototypeOf(role) as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(methods)) {
      const method = methods[name];
      if (name === 'constructor' || typeof method !== 'function') continue;
      if (name in engine) throw new Error(`Two store roles name the method ${name}`);
      engine[name] = method.bind(role);
    }
  }
  return engine as unknown as StoreEngine;
}
