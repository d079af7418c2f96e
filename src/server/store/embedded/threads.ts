import { newComment } from '../records.ts';
import type { ThreadStore, Votes } from '../roles.ts';
import type { ArticleThread } from './article-thread.ts';
import { now } from '../clock.ts';
import type { NewComment, NewReaction, ReactionCounts, RevisionTopic, StoredComment, VoteTarget, VoteValue } from '../types.ts';
import type { EmbeddedCore } from './engine.ts';
import type { StoreState } from './state.ts';

/** Newest first, as PostgreSQL orders them (by time, then id). */
export function newestFirst(a: StoredComment, b: StoredComment): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The threads of the embedded store: read from its state in memory, written through its journal. */
export class EmbeddedThreads implements ThreadStore {
  readonly #core: EmbeddedCore;
  readonly #state: StoreState;

  constructor(core: EmbeddedCore) {
    this.#core = core;
    this.#state = core.state;
  }

  async insertComment(comment: NewComment): Promise<StoredComment> {
    const stored = newComment(comment);
    const answer = { ...stored };
    await this.#core.prepareAndCommit({ op: 'comment', comment: stored, outbox: this.#core.outboxRefs(stored.id) });
    return answer;
  }

  async getComment(articleSlug: string, id: string): Promise<StoredComment | null> {
    return (await this.#state.article(articleSlug))?.comment(id) ?? null;
  }

  async remoteComment(id: string): Promise<StoredComment | null> {
    const slug = this.#state.moderation.remote.get(id);
    return slug === undefined ? null : ((await this.#state.article(slug))?.comment(id) ?? null);
  }

  async editRemoteComment(id: string, body: string): Promise<StoredComment | null> {
    const slug = this.#state.moderation.remote.get(id);
    if (slug === undefined || !(await this.#state.article(slug))?.hasComment(id)) return null;
    await this.#core.prepareAndCommit({ op: 'editComment', articleSlug: slug, commentId: id, body });
    return this.remoteComment(id);
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

  async setReaction({ articleSlug, kind, actorId }: NewReaction, on: boolean): Promise<boolean> {
    const thread = (await this.#state.article(articleSlug)) ?? (on ? await this.#state.articleToWrite(articleSlug) : null);
    // From here to the commit nothing is awaited: the change is decided against every one before it.
    if (thread === null || thread.hasReaction(kind, actorId) === on) return false;
    await this.#core.commit({ op: 'reaction', articleSlug, kind, actorId, at: now(), on });
    return true;
  }

  async reactionCounts(articleSlug: string): Promise<ReactionCounts> {
    return (await this.#state.article(articleSlug))?.reactionCounts() ?? { likes: 0, boosts: 0 };
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
          this.#core.journal.append('')
        : this.#core.commit({ op: 'vote', articleSlug, commentId, voter, vote });
    const score = thread.scoreOf(commentId);
    await durable;
    return { score, vote };
  }

  votesOf(articleSlug: string, voter: string): Votes | Promise<Votes> {
    const votesIn = (thread: ArticleThread | null): Votes => thread?.votesOf(voter) ?? { article: 0, comments: {} };
    const thread = this.#state.articleAtHand(articleSlug);
    return thread === undefined ? this.#state.article(articleSlug).then(votesIn) : votesIn(thread);
  }

  revision(topic: RevisionTopic): Promise<string> {
    return Promise.resolve(String(this.#core.revisions.get(topic) ?? 0));
  }
}
