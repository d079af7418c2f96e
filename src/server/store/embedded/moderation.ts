import { now } from '../clock.ts';
import { countSubscribers, newBan } from '../records.ts';
import type { ModerationStore } from '../roles.ts';
import type { CommentFilter, ReviewQueue, SpentLink, StoredComment, StoreStats, TopicRequest, TopicRequestAnswer } from '../types.ts';
import type { JournalChange } from './documents.ts';
import type { EmbeddedCore } from './engine.ts';
import type { StoreState } from './state.ts';
import { newestFirst } from './threads.ts';

/**
 * The owner's operations on the embedded store. Those over every thread read
 * a thread at a time (StoreState.threads): the owner's tool never holds every
 * comment at once.
 */
export class EmbeddedModeration implements ModerationStore {
  readonly #core: EmbeddedCore;
  readonly #state: StoreState;

  constructor(core: EmbeddedCore) {
    this.#core = core;
    this.#state = core.state;
  }

  isBanned(readerHash: string): Promise<boolean> {
    return Promise.resolve(this.#state.bans.find(readerHash) !== null);
  }

  async findComment(id: string): Promise<StoredComment | null> {
    const pendingOn = this.#state.moderation.pending.get(id);
    if (pendingOn !== undefined) return this.#comment(pendingOn, id);
    for await (const thread of this.#state.threads()) if (thread.hasComment(id)) return thread.comment(id);
    return null;
  }

  approveComment(id: string): Promise<StoredComment | null> {
    return this.#changePending(id, 'approveComment');
  }

  removePendingComment(id: string): Promise<StoredComment | null> {
    return this.#changePending(id, 'removeComment');
  }

  async deleteComment(id: string): Promise<StoredComment | null> {
    // A reply from the fediverse is found at once: its author's Delete comes from outside, at any pace.
    const remoteOn = this.#state.moderation.remote.get(id);
    const known = remoteOn === undefined ? null : await this.#state.article(remoteOn);
    for await (const thread of known ? [known] : this.#state.threads()) {
      if (!thread.hasComment(id)) continue;
      const change: JournalChange = { op: 'deleteComment', articleSlug: thread.slug, commentId: id, deletedAt: now() };
      await this.#core.prepareAndCommit(change);
      return this.#comment(thread.slug, id);
    }
    return null;
  }

  async moderateTopicRequest(id: string, verdict: 'approve' | 'remove'): Promise<TopicRequest | null> {
    const request = this.#state.topicRequests.find(id);
    if (request?.status !== 'waiting') return null;
    await this.#core.commit(verdict === 'approve' ? { op: 'approveTopicRequest', id } : { op: 'removeTopicRequest', id });
    return verdict === 'approve' ? { ...request, status: 'pending' } : request;
  }

  async answerTopicRequest(id: string, answer: TopicRequestAnswer): Promise<TopicRequest | null> {
    const request = this.#state.topicRequests.find(id);
    if (!request) return null;
    const answered: TopicRequest = { ...request, status: answer.status, answerUrl: answer.status === 'answered' ? answer.answerUrl : null };
    await this.#core.commit({ op: 'answerTopicRequest', item: answered });
    return { ...answered };
  }

  async markReviewed(kind: 'bugReport' | 'citySubmission', id: string): Promise<boolean> {
    const item = (kind === 'bugReport' ? this.#state.bugReports : this.#state.citySubmissions).find(id);
    if (!item) return false;
    if (item.reviewedAt === null) await this.#core.commit({ op: 'reviewed', kind, id, reviewedAt: now() });
    return true;
  }

  async reviewQueue(): Promise<ReviewQueue> {
    const comments: StoredComment[] = [];
    for (const [id, slug] of this.#state.moderation.pending) {
      const comment = await this.#comment(slug, id);
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
    await this.#core.commit(banned ? { op: 'ban', item: newBan(readerHash) } : { op: 'unban', readerHash });
    return true;
  }

  async spendLink(link: SpentLink): Promise<boolean> {
    // Checked and applied with no await between: one process holds the store (lock.ts).
    if (this.#state.spentLinks.find(link.link) !== null) return false;
    await this.#core.commit({ op: 'spendLink', item: link, at: now() });
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
      subscribers: countSubscribers(this.#state.newsletter.subscribers.oldestFirst()),
    };
  }

  /** A comment of an article, published or pending. */
  async #comment(articleSlug: string, id: string): Promise<StoredComment | null> {
    return (await this.#state.article(articleSlug))?.comment(id) ?? null;
  }

  /** Approves or removes a pending comment; null when none has this id. */
  async #changePending(id: string, op: 'approveComment' | 'removeComment'): Promise<StoredComment | null> {
    const articleSlug = this.#state.moderation.pending.get(id);
    const before = articleSlug === undefined ? null : await this.#comment(articleSlug, id);
    if (articleSlug === undefined || before?.status !== 'pending') return null;
    await this.#core.prepareAndCommit({ op, articleSlug, commentId: id });
    return op === 'approveComment' ? { ...before, status: 'published' } : before;
  }
}
