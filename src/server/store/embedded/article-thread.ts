import type { CastVote, ReactionCounts, StoredComment, VoteValue } from '../types.ts';
import { articleDocument, corruptFile, type ArticleDocument, type StoredVote, type ThreadReaction } from './documents.ts';
import { snapshotDocument, type SnapshotDocument } from './durable-json-file.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

/** The lowdb document of an article, empty until read or written. */
function snapshotFile(file: string, slug: string): SnapshotDocument<ArticleDocument> {
  return snapshotDocument(file, articleDocument, { format: 1, slug, journalSeq: 0, score: 0, comments: [], votes: [], reactions: [] });
}

/**
 * One copy of each reader's hash and name, however many comments and votes
 * they wrote: each one read from a file or the journal arrives with strings of
 * its own.
 */
const readerStrings = new Map<string, string>();
function interned(value: string): string {
  const known = readerStrings.get(value);
  if (known !== undefined) return known;
  readerStrings.set(value, value);
  return value;
}

interface VotesOfVoter {
  article: VoteValue;
  /** Made at the voter's first vote on a comment: most voters vote on the article only, and an empty Map is 300 bytes. */
  comments: Map<string, CastVote> | null;
}

/**
 * One article's comments and votes, in memory, with the lowdb file that keeps
 * its snapshot. Scores (the article's and each comment's) are ups minus downs,
 * kept up to date as votes change.
 */
export class ArticleThread implements SnapshotTarget {
  readonly slug: string;
  readonly #file: SnapshotDocument<ArticleDocument>;
  #journalSeq: number;
  #score: number;
  /**
   * Oldest first; the objects are the stored ones, copied before they leave
   * the store, and replaced rather than changed in place, so that a snapshot
   * holds a copy of this list and nothing more.
   */
  readonly #comments: StoredComment[];
  /** Where each comment is in #comments. */
  readonly #indexById = new Map<string, number>();
  readonly #votesByVoter = new Map<string, VotesOfVoter>();
  /** The fediverse's likes and boosts, by kind and actor, oldest first. */
  readonly #reactions = new Map<string, ThreadReaction>();

  private constructor(file: SnapshotDocument<ArticleDocument>) {
    const document = file.data;
    this.#file = file;
    this.slug = document.slug;
    this.#journalSeq = document.journalSeq;
    this.#score = document.score;
    this.#comments = [];
    for (const comment of document.comments) this.addComment(comment);
    for (const { voter, commentId, vote } of document.votes) {
      if (commentId !== null && !this.#indexById.has(commentId)) throw new Error(`a vote is on comment ${commentId}, which does not exist`);
      if (this.voteOf(voter, commentId) !== 0) throw new Error(`voter ${voter} votes twice on ${commentId ?? 'the article'}`);
      this.#record(voter, commentId, vote);
    }
    for (const reaction of document.reactions) this.setReaction(reaction, true);
  }

  /** A thread with nothing in it yet, kept in `file` once it has something. */
  static empty(file: string, slug: string): ArticleThread {
    return new ArticleThread(snapshotFile(file, slug));
  }

  /** The thread kept in `file`. Rejects naming the file when it is not a consistent thread of `slug`. */
  static async load(file: string, slug: string): Promise<ArticleThread> {
    const snapshot = snapshotFile(file, slug);
    await snapshot.read();
    try {
      if (snapshot.data.slug !== slug) throw new Error(`it holds article "${snapshot.data.slug}", not "${slug}"`);
      return new ArticleThread(snapshot);
    } catch (error) {
      throw corruptFile(file, (error as Error).message);
    }
  }

  get journalSeq(): number {
    return this.#journalSeq;
  }

  get commentCount(): number {
    return this.#comments.length;
  }

  comments(): StoredComment[] {
    return this.#comments.map((comment) => ({ ...comment }));
  }

  comment(id: string): StoredComment | null {
    const comment = this.kept(id);
    return comment ? { ...comment } : null;
  }

  hasComment(id: string): boolean {
    return this.#indexById.has(id);
  }

  /** Whether the comment exists, is published and was not deleted. */
  hasLiveComment(id: string): boolean {
    const comment = this.kept(id);
    return comment !== undefined && comment.deletedAt === null && comment.status === 'published';
  }

  /** The published comments, oldest first, as readers see them. */
  publishedComments(): StoredComment[] {
    return this.#comments.filter((comment) => comment.status === 'published').map((comment) => ({ ...comment }));
  }

  /** Visits every comment as kept, without copying it: for what the store keeps about all of them at open. */
  forEachComment(visit: (comment: Readonly<StoredComment>) => void): void {
    for (const comment of this.#comments) visit(comment);
  }

  /** Throws when the id is taken or the comment belongs to another article. */
  addComment(comment: StoredComment): void {
    if (comment.articleSlug !== this.slug) throw new Error(`comment ${comment.id} belongs to "${comment.articleSlug}", not "${this.slug}"`);
    if (this.#indexById.has(comment.id)) throw new Error(`comment ${comment.id} appears twice`);
    // Kept as a literal of one shape: an object built field by field (a parser's) carries a second array of fields.
    const kept: StoredComment = {
      id: comment.id,
      articleSlug: this.slug,
      parentId: comment.parentId,
      depth: comment.depth,
      author: interned(comment.author),
      authorHash: interned(comment.authorHash),
      body: comment.body,
      createdAt: comment.createdAt,
      score: comment.score,
      deletedAt: comment.deletedAt,
      status: comment.status,
      remote: comment.remote ?? null,
      imported: comment.imported ?? null,
    };
    this.#indexById.set(kept.id, this.#comments.length);
    this.#comments.push(kept);
  }

  /** Empties the comment's body and marks it deleted (keeping the first date it was). Throws when there is no such comment. */
  deleteComment(id: string, deletedAt: string): void {
    const comment = this.#existing(id);
    this.#replace({ ...comment, body: '', deletedAt: comment.deletedAt ?? deletedAt });
  }

  /** Replaces a comment's text, unless it was deleted. Throws when there is no such comment. */
  editComment(id: string, body: string): void {
    const comment = this.#existing(id);
    if (comment.deletedAt === null) this.#replace({ ...comment, body });
  }

  /** Publishes a pending comment. Throws when there is no such comment. */
  approveComment(id: string): StoredComment {
    return this.#replace({ ...this.#existing(id), status: 'published' });
  }

  /** Removes a pending comment, which no reply and no vote can name. Throws when there is no such pending comment. */
  removePendingComment(id: string): StoredComment {
    const index = this.#indexById.get(id);
    const comment = index === undefined ? undefined : this.#comments[index];
    if (index === undefined || comment?.status !== 'pending') throw new Error(`no pending comment ${id}`);
    this.#indexById.delete(id);
    this.#comments.splice(index, 1);
    for (let later = index; later < this.#comments.length; later += 1)
      this.#indexById.set((this.#comments[later] as StoredComment).id, later);
    return comment;
  }

  /** The comment as the thread keeps it, not a copy: it is replaced, never changed, so it may be held on to as it is. */
  kept(id: string): Readonly<StoredComment> | undefined {
    const index = this.#indexById.get(id);
    return index === undefined ? undefined : this.#comments[index];
  }

  #existing(id: string): StoredComment {
    const comment = this.kept(id);
    if (!comment) throw new Error(`comment ${id} does not exist`);
    return comment;
  }

  /** Puts `comment` in the place of the one with its id, which exists. */
  #replace(comment: StoredComment): StoredComment {
    this.#comments[this.#indexById.get(comment.id) as number] = comment;
    return comment;
  }

  /** A voter's vote on the article (commentId null) or on one of its comments; 0 when none. */
  voteOf(voter: string, commentId: string | null): VoteValue {
    const votes = this.#votesByVoter.get(voter);
    if (!votes) return 0;
    return commentId === null ? votes.article : (votes.comments?.get(commentId) ?? 0);
  }

  /** The score of the article (commentId null) or of one of its comments. */
  scoreOf(commentId: string | null): number {
    return commentId === null ? this.#score : (this.kept(commentId)?.score ?? 0);
  }

  /** Sets the voter's vote on a target and moves its score by the difference. Throws when the comment does not exist. */
  setVote(voter: string, commentId: string | null, vote: VoteValue): void {
    const comment = commentId === null ? null : this.kept(commentId);
    if (comment === undefined) throw new Error(`vote on comment ${String(commentId)}, which does not exist`);
    const change = vote - this.voteOf(voter, commentId);
    if (comment === null) this.#score += change;
    else if (change !== 0) this.#replace({ ...comment, score: comment.score + change });
    this.#record(voter, commentId, vote);
  }

  /** A voter's votes on this article: on the article, and on each comment voted on. */
  votesOf(voter: string): { article: VoteValue; comments: Record<string, CastVote> } {
    const votes = this.#votesByVoter.get(voter);
    return { article: votes?.article ?? 0, comments: Object.fromEntries(votes?.comments ?? []) };
  }

  async writeSnapshot(journalSeq: number): Promise<number> {
    this.#file.data = {
      format: 1,
      slug: this.slug,
      journalSeq,
      score: this.#score,
      comments: this.#comments,
      votes: this.votes(),
      reactions: this.reactions(),
    };
    const bytes = await this.#file.adapter.writeSized(this.#file.data);
    this.#journalSeq = journalSeq;
    return bytes;
  }

  /** Whether `actorId` has a reaction of `kind` kept. */
  hasReaction(kind: ThreadReaction['kind'], actorId: string): boolean {
    return this.#reactions.has(`${kind} ${actorId}`);
  }

  /** Keeps a like or boost (`on`; one per actor and kind, the first kept), or removes it. */
  setReaction(reaction: ThreadReaction, on: boolean): void {
    const key = `${reaction.kind} ${reaction.actorId}`;
    if (!on) this.#reactions.delete(key);
    else if (!this.#reactions.has(key)) this.#reactions.set(key, reaction);
  }

  reactionCounts(): ReactionCounts {
    let likes = 0;
    for (const { kind } of this.#reactions.values()) if (kind === 'like') likes += 1;
    return { likes, boosts: this.#reactions.size - likes };
  }

  /** Every like and boost, oldest first. */
  reactions(): ThreadReaction[] {
    return [...this.#reactions.values()];
  }

  /** Keeps a vote without touching scores (they are stored with the thread). */
  #record(voter: string, commentId: string | null, vote: VoteValue): void {
    let votes = this.#votesByVoter.get(voter);
    if (!votes) {
      votes = { article: 0, comments: null };
      this.#votesByVoter.set(interned(voter), votes);
    }
    if (commentId === null) votes.article = vote;
    else if (vote === 0) votes.comments?.delete(commentId);
    else (votes.comments ??= new Map()).set(commentId, vote);
    if (votes.comments?.size === 0) votes.comments = null;
    if (votes.article === 0 && votes.comments === null) this.#votesByVoter.delete(voter);
  }

  /** Every vote on this article and its comments (none at 0). */
  votes(): StoredVote[] {
    const list: StoredVote[] = [];
    for (const [voter, votes] of this.#votesByVoter) {
      if (votes.article !== 0) list.push({ voter, commentId: null, vote: votes.article });
      for (const [commentId, vote] of votes.comments ?? []) list.push({ voter, commentId, vote });
    }
    return list;
  }
}
