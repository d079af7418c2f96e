import type { z } from 'zod';
import type {
  appearance,
  appearanceChange,
  appearanceConsumer,
  ban,
  castVote,
  delivery,
  mention,
  newsletterIssue,
  subscriber,
  bugReport,
  citySubmission,
  comment,
  commentStatus,
  commentSystem,
  exportRecord,
  follower,
  instanceBlock,
  reaction,
  notification,
  notificationChannel,
  outboxEntry,
  spentLink,
  topicRequest,
  topicRequestStatus,
  voteValue,
} from './shapes.ts';

/**
 * The store's records and the values its roles (roles.ts) take and give.
 * The stored records' types are inferred from their schemas (shapes.ts).
 */

/** A voter's vote as it stands; 0 means no vote. */
export type VoteValue = z.infer<typeof voteValue>;
/** A vote cast: up or down. */
export type CastVote = z.infer<typeof castVote>;

export type CommentStatus = z.infer<typeof commentStatus>;
/** A comment system whose export the data tool imports. */
export type CommentSystem = z.infer<typeof commentSystem>;
export type StoredComment = z.infer<typeof comment>;
export type TopicRequestStatus = z.infer<typeof topicRequestStatus>;
export type TopicRequest = z.infer<typeof topicRequest>;
export type BugReport = z.infer<typeof bugReport>;
export type CitySubmission = z.infer<typeof citySubmission>;
export type StoredBan = z.infer<typeof ban>;
export type SpentLink = z.infer<typeof spentLink>;
export type ExportRecord = z.infer<typeof exportRecord>;
export type Follower = z.infer<typeof follower>;
/** A follower as the inbox hears of it: the store sets when it followed. */
export type NewFollower = Omit<Follower, 'followedAt'>;
export type InstanceBlock = z.infer<typeof instanceBlock>;
export type Reaction = z.infer<typeof reaction>;
/** A reaction as the inbox hears of it: the store sets when. */
export type NewReaction = Omit<Reaction, 'at'>;
/** How many remote actors like and boost an article. */
export interface ReactionCounts {
  likes: number;
  boosts: number;
}
export type NotificationChannel = z.infer<typeof notificationChannel>;
export type Notification = z.infer<typeof notification>;
export type OutboxEntry = z.infer<typeof outboxEntry>;
export type Appearance = z.infer<typeof appearance>;
export type AppearanceConsumer = z.infer<typeof appearanceConsumer>;
export type AppearanceChange = z.infer<typeof appearanceChange>;
/** An article translation: an article's file in one language. */
export type ArticleTranslation = Pick<Appearance, 'slug' | 'lang'>;
/** A translation visible now, with the digest of what a follower sees of it. */
export type VisibleTranslation = ArticleTranslation & { digest: string };
/** What recording the visible translations did: the versions recorded, and whether a change had to wait (`deferred`). */
export interface RecordedAppearances {
  recorded: Appearance[];
  /** A change to a translation whose version still waits for a consumer is left for a later call. */
  deferred: boolean;
}
export type Subscriber = z.infer<typeof subscriber>;
export type NewsletterIssue = z.infer<typeof newsletterIssue>;
/** A newsletter issue as its sender settles it: its appearance and its subscriber. */
export type IssueKey = Pick<NewsletterIssue, 'slug' | 'lang' | 'subscriberId'>;
export type Delivery = z.infer<typeof delivery>;
/** An activity to deliver: what it does, to which translation, by its id. */
export type DeliveredActivity = Pick<Delivery, 'activityId' | 'activity' | 'slug' | 'lang'>;
/** A delivery as its sender settles it: its activity and its inbox. */
export type DeliveryKey = Pick<Delivery, 'activityId' | 'inbox'>;
/** What became of a delivery settled for good. */
export type DeliveryOutcome = NonNullable<Delivery['outcome']>;
export type Mention = z.infer<typeof mention>;
/** A Webmention named by its source and target. */
export type MentionKey = Pick<Mention, 'source' | 'target'>;
/** An outbox entry as a sender settles it: its id, with the channel and time that order the outbox. */
export type OutboxKey = Pick<OutboxEntry, 'id' | 'channel' | 'createdAt'>;

export type NewComment = Omit<StoredComment, 'id' | 'createdAt' | 'score' | 'deletedAt'>;

/** A new topic request: listed at once (`pending`, unless said otherwise) or waiting for approval. */
export type NewTopicRequest = Omit<TopicRequest, 'id' | 'createdAt' | 'status' | 'answerUrl'> & { status?: 'pending' | 'waiting' };
export type NewBugReport = Omit<BugReport, 'id' | 'createdAt' | 'reviewedAt'>;
export type NewCitySubmission = Omit<CitySubmission, 'id' | 'createdAt' | 'reviewedAt'>;

/** A vote on an article (commentId null) or on one of its comments. */
export interface VoteTarget {
  articleSlug: string;
  commentId: string | null;
}

/** The owner's verdict on a topic request. */
export type TopicRequestAnswer = { status: 'answered'; answerUrl: string } | { status: 'declined' };

/** Which comments the owner's desk lists, newest first: every one, or those waiting, an article's, a reader's, older than `before`. */
export interface CommentFilter {
  /** Only the comments waiting for approval. */
  waiting?: boolean;
  articleSlug?: string;
  authorHash?: string;
  /** ISO 8601: only comments written before it (the next page of a list). */
  before?: string;
}

/**
 * What waits for the owner, oldest first: comments waiting for approval, topic requests waiting for approval or an
 * answer, unreviewed bug reports and city submissions.
 */
export interface ReviewQueue {
  comments: StoredComment[];
  topicRequests: TopicRequest[];
  bugReports: BugReport[];
  citySubmissions: CitySubmission[];
}

/** What an import added; records already there count as skipped. */
export interface ImportCounts {
  added: number;
  skipped: number;
}

/** The owner's overview of a store. */
export interface StoreStats {
  articles: number;
  comments: number;
  deletedComments: number;
  /** Comments waiting for approval, among `comments`. */
  pendingComments: number;
  votes: number;
  topicRequests: Record<TopicRequestStatus, number>;
  bugReports: { total: number; pending: number };
  citySubmissions: { total: number; pending: number };
  bans: number;
  /** Subscribers by language, only the languages that have any: counts, never an address. */
  subscribers: SubscriberCounts;
}

/** Subscribers of each language, confirmed and pending. */
export type SubscriberCounts = Partial<Record<Subscriber['lang'], Record<Subscriber['status'], number>>>;

/**
 * What a cached render shows and can be told apart by revision: one article's
 * thread (its comments, their scores, the article's score), every thread at
 * once (`threads`: it changes whenever one of them does), or the list of
 * topic requests.
 */
export type RevisionTopic = `thread:${string}` | 'threads' | 'topic-requests';

/** The revision topic of one article's thread. */
export function threadTopic(articleSlug: string): RevisionTopic {
  return `thread:${articleSlug}`;
}
