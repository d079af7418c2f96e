import { LRUCache } from 'lru-cache';
import { MAX_COMMENT_DEPTH, publicComment, type PublicComment } from '../store/service.ts';
import type { MentionStore, ThreadStore } from '../store/roles.ts';
import { threadTopic, type Mention, type ReactionCounts, type StoredComment } from '../store/types.ts';

/** A comment with its replies, as the thread shows it: the author's hash never leaves the store. */
export interface ThreadComment extends PublicComment {
  replies: ThreadComment[];
  /** Whether a reply to it would still be within the deepest level (never to a deleted comment). */
  canReply: boolean;
  /** Deleted by the owner: shown as a placeholder, with no author, body, votes or reply, its replies still under it. */
  deleted: boolean;
}

/** A verified Webmention as the thread shows it: who wrote the source, what it is, its text (plain). */
export type ShownMention = Pick<Mention, 'source' | 'kind' | 'authorName' | 'authorUrl' | 'content' | 'settledAt'>;

/** A whole thread as readers see it, at one revision of the store. Shared by every reader of that revision: never changed. */
interface ThreadView {
  /** The store's revision of `thread:<slug>` read before the comments (ThreadStore.revision). */
  revision: string;
  articleScore: number;
  /** The fediverse's likes and boosts of the article. */
  reactions: ReactionCounts;
  /** The Webmentions shown (published), oldest first. */
  mentions: readonly ShownMention[];
  /** Top-level comments, newest first, each with its replies oldest first under it. */
  topLevel: readonly ThreadComment[];
}

/** What the store needs to answer for a thread's views. */
export type ThreadSource = Pick<ThreadStore, 'revision' | 'listComments' | 'articleScore' | 'reactionCounts'> &
  Pick<MentionStore, 'mentionsOf'>;

/**
 * Bytes of thread views kept at most, counted from their comments' text: the
 * busiest threads of a large publication. A thread larger than the whole
 * budget is built on every read, but its page count is still kept.
 */
const VIEW_BYTES = 16 * 1024 * 1024;
/**
 * What a comment costs a view besides its text (its fields and objects), in
 * the budget's bytes. A view holds each body as typed, its Markdown: the HTML
 * is made where a page or a feed is rendered, and those renders are kept by
 * their own size (front/response-cache.ts).
 */
const COMMENT_OVERHEAD_BYTES = 400;
/** Threads whose size is kept (a few dozen bytes each), so that a page past the last is answered without its thread. */
const KEPT_SIZES = 10_000;

function shown(comment: StoredComment): ThreadComment {
  const deleted = comment.deletedAt !== null;
  const kept = publicComment(comment);
  if (deleted) {
    delete kept.authorUrl;
    delete kept.importedFrom;
  }
  return {
    ...kept,
    ...(deleted ? { author: '', body: '', score: 0 } : {}),
    replies: [],
    canReply: !deleted && kept.depth < MAX_COMMENT_DEPTH,
    deleted,
  };
}

/** The mentions readers see: those published, each as it is shown. */
function shownMentions(mentions: readonly Mention[]): ShownMention[] {
  return mentions
    .filter((mention) => mention.status === 'published')
    .map(({ source, kind, authorName, authorUrl, content, settledAt }) => ({ source, kind, authorName, authorUrl, content, settledAt }));
}

/** The tree of `stored` (oldest first): top-level comments newest first, each reply under its parent, oldest first. */
function treeOf(stored: readonly StoredComment[]): ThreadComment[] {
  const byId = new Map(stored.map((comment) => [comment.id, shown(comment)]));
  const topLevel: ThreadComment[] = [];
  for (const comment of byId.values()) {
    const parent = comment.parentId === null ? undefined : byId.get(comment.parentId);
    if (parent) parent.replies.push(comment);
    else topLevel.push(comment);
  }
  return topLevel.reverse();
}

/** A thread's size at a revision: what a page number past the last needs. */
interface ThreadSize {
  revision: string;
  articleScore: number;
  reactions: ReactionCounts;
  mentions: readonly ShownMention[];
  topLevelCount: number;
}

/**
 * The thread views of one store, each kept until its thread's revision
 * changes: every page of a thread, and every reader or agent asking for one,
 * is answered from one read of the store per change. Readers asking at once
 * for a thread not yet kept share one read.
 */
class ThreadViews {
  readonly #store: ThreadSource;
  readonly #views = new LRUCache<string, ThreadView & { bytes: number }>({
    maxSize: VIEW_BYTES,
    sizeCalculation: (view) => view.bytes,
  });
  readonly #sizes = new LRUCache<string, ThreadSize>({ max: KEPT_SIZES });
  readonly #loading = new Map<string, Promise<ThreadView>>();

  constructor(store: ThreadSource) {
    this.#store = store;
  }

  /** The revision of the thread of `articleSlug` now. */
  revision(articleSlug: string): Promise<string> {
    return this.#store.revision(threadTopic(articleSlug));
  }

  /** The size of the thread at `revision`, when it is known without reading the thread. */
  sizeAt(articleSlug: string, revision: string): ThreadSize | undefined {
    const size = this.#sizes.get(articleSlug);
    return size?.revision === revision ? size : undefined;
  }

  /** The whole thread at `revision` (read just before), from memory when it is kept. */
  view(articleSlug: string, revision: string): Promise<ThreadView> {
    const kept = this.#views.get(articleSlug);
    if (kept?.revision === revision) return Promise.resolve(kept);
    const key = `${articleSlug}\n${revision}`;
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#load(articleSlug, revision).finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    return loading;
  }

  async #load(articleSlug: string, revision: string): Promise<ThreadView> {
    const [stored, articleScore, reactions, mentions] = await Promise.all([
      this.#store.listComments(articleSlug),
      this.#store.articleScore(articleSlug),
      this.#store.reactionCounts(articleSlug),
      this.#store.mentionsOf(articleSlug).then(shownMentions),
    ]);
    const view: ThreadView = { revision, articleScore, reactions, mentions, topLevel: treeOf(stored) };
    // The view itself weighs what a comment does: a thread with none is kept too.
    const bytes = stored.reduce(
      (sum, comment) => sum + COMMENT_OVERHEAD_BYTES + comment.body.length + comment.author.length,
      COMMENT_OVERHEAD_BYTES + mentions.reduce((sum, mention) => sum + COMMENT_OVERHEAD_BYTES + (mention.content?.length ?? 0), 0),
    );
    if (bytes <= VIEW_BYTES) this.#views.set(articleSlug, { ...view, bytes });
    this.#sizes.set(articleSlug, { revision, articleScore, reactions, mentions, topLevelCount: view.topLevel.length });
    return view;
  }
}

const viewsByStore = new WeakMap<ThreadSource, ThreadViews>();

/** The kept thread views of `store`, made at its first use. */
export function threadViewsOf(store: ThreadSource): ThreadViews {
  let views = viewsByStore.get(store);
  if (!views) {
    views = new ThreadViews(store);
    viewsByStore.set(store, views);
  }
  return views;
}
