/**
 * The store interface every engine implements (the embedded lowdb engine,
 * later PostgreSQL). Engines keep data; the rules (threading, the vote
 * toggle) live once in the service above them (src/server/store/service.ts).
 */

/** A vote's direction; 0 means no vote. */
export type VoteValue = -1 | 0 | 1;

export interface StoredComment {
  id: string;
  articleSlug: string;
  parentId: string | null;
  /** 1 for a top-level comment, up to 4. */
  depth: number;
  /** The colour-and-animal name shown for the author. */
  author: string;
  /** The salted hash of the author's address: never shown, kept so an owner can block a reader. */
  authorHash: string;
  /** The raw text, never rendered as HTML. */
  body: string;
  /** ISO 8601 */
  createdAt: string;
  /** Ups minus downs. */
  score: number;
}

export type NewComment = Omit<StoredComment, 'id' | 'createdAt' | 'score'>;

/** A vote on an article (commentId null) or on one of its comments. */
export interface VoteTarget {
  articleSlug: string;
  commentId: string | null;
}

export interface TopicRequest {
  id: string;
  requestTitle: string;
  details: string | null;
  status: 'pending';
  authorHash: string;
  createdAt: string;
}

export interface BugReport {
  id: string;
  description: string;
  pagePath: string | null;
  authorHash: string;
  createdAt: string;
}

export interface CitySubmission {
  id: string;
  cityId: string;
  city: string;
  country: string;
  countryName: string;
  region: string | null;
  lat: number;
  lon: number;
  currency: string;
  netPay: number;
  rent: number;
  beerPrice: number;
  authorHash: string;
  createdAt: string;
}

/**
 * What a cached render shows and can be told apart by revision: one article's
 * thread (its comments, their scores, the article's score) or the list of
 * topic requests.
 */
export type RevisionTopic = `thread:${string}` | 'topic-requests';

export interface StoreEngine {
  /** Stores a comment; resolves only once it is durable (on disk, or committed). */
  insertComment(comment: NewComment): Promise<StoredComment>;
  getComment(articleSlug: string, id: string): Promise<StoredComment | null>;
  /** Every comment of an article, oldest first. */
  listComments(articleSlug: string): Promise<StoredComment[]>;
  /** The article's own score (ups minus downs of the votes on the article itself); 0 when none. */
  articleScore(articleSlug: string): Promise<number>;
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
  /** This voter's votes on an article and on its comments (only those voted on). */
  votesOf(articleSlug: string, voter: string): Promise<{ article: VoteValue; comments: Record<string, -1 | 1> }>;
  insertTopicRequest(request: Omit<TopicRequest, 'id' | 'createdAt' | 'status'>): Promise<TopicRequest>;
  /** Newest first. */
  listTopicRequests(): Promise<TopicRequest[]>;
  insertBugReport(report: Omit<BugReport, 'id' | 'createdAt'>): Promise<BugReport>;
  insertCitySubmission(submission: Omit<CitySubmission, 'id' | 'createdAt'>): Promise<CitySubmission>;
  /**
   * A token that changes whenever what `topic` covers changes, in this process
   * or any other sharing the store: a cached render is kept under it and
   * replaced as soon as it differs. Cheap, so it can be asked for every read.
   */
  revision(topic: RevisionTopic): Promise<string>;
  /** Flushes what is pending and releases files or connections. */
  close(): Promise<void>;
}
