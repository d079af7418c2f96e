import { SLUG_PATTERN } from '../../articles/source.ts';
import type { BugReport, CitySubmission, TopicRequest } from '../types.ts';
import type { StoredBan } from '../shapes.ts';
import { ArticleThread } from './article-thread.ts';
import { Collection } from './collection.ts';
import { storedShapes, type JournalRecord } from './documents.ts';
import { namesIn } from './files.ts';
import { ARTICLE_FILE, articleFile, type StoreLayout } from './layout.ts';
import type { SnapshotTarget } from './snapshot-target.ts';

/** Everything the embedded store holds, in memory: reads never touch the disk. */
export class StoreState {
  readonly #layout: StoreLayout;
  readonly #articles: Map<string, ArticleThread>;
  readonly topicRequests: Collection<TopicRequest>;
  readonly bugReports: Collection<BugReport>;
  readonly citySubmissions: Collection<CitySubmission>;
  readonly bans: Collection<StoredBan>;

  private constructor(
    layout: StoreLayout,
    articles: Map<string, ArticleThread>,
    collections: {
      topicRequests: Collection<TopicRequest>;
      bugReports: Collection<BugReport>;
      citySubmissions: Collection<CitySubmission>;
      bans: Collection<StoredBan>;
    },
  ) {
    this.#layout = layout;
    this.#articles = articles;
    this.topicRequests = collections.topicRequests;
    this.bugReports = collections.bugReports;
    this.citySubmissions = collections.citySubmissions;
    this.bans = collections.bans;
  }

  /** Reads every snapshot file; rejects naming the first damaged one. */
  static async load(layout: StoreLayout): Promise<StoreState> {
    const slugs = (await namesIn(layout.articles)).map((name) => ARTICLE_FILE.exec(name)?.[1]).filter((slug) => slug !== undefined);
    const threads = await Promise.all(slugs.map((slug) => ArticleThread.load(articleFile(layout, slug), slug)));
    return new StoreState(layout, new Map(threads.map((thread) => [thread.slug, thread])), {
      topicRequests: await Collection.load(layout.topicRequests, storedShapes.topicRequest, byId),
      bugReports: await Collection.load(layout.bugReports, storedShapes.bugReport, byId),
      citySubmissions: await Collection.load(layout.citySubmissions, storedShapes.citySubmission, byId),
      bans: await Collection.load(layout.bans, storedShapes.ban, (ban) => ban.readerHash),
    });
  }

  /** Every snapshot file's state, the collections' and each article's. */
  targets(): SnapshotTarget[] {
    return [this.topicRequests, this.bugReports, this.citySubmissions, this.bans, ...this.#articles.values()];
  }

  /** Every article that has comments or votes. */
  articles(): ArticleThread[] {
    return [...this.#articles.values()];
  }

  /** The article's thread, or null when nothing was ever stored for it. */
  article(slug: string): ArticleThread | null {
    return this.#articles.get(slug) ?? null;
  }

  /** The article's thread, started empty when there is none. Throws when `slug` is not a slug (it names a file). */
  articleToWrite(slug: string): ArticleThread {
    let thread = this.#articles.get(slug);
    if (!thread) {
      if (!SLUG_PATTERN.test(slug)) throw new Error(`Not an article slug: ${JSON.stringify(slug)}`);
      thread = ArticleThread.empty(articleFile(this.#layout, slug), slug);
      this.#articles.set(slug, thread);
    }
    return thread;
  }

  /**
   * Applies a journal record and returns the state it changed, or null when
   * that state's snapshot already holds it (only when replaying). Throws when
   * the record does not fit the state (a vote on a missing comment, a
   * duplicate id).
   */
  apply(record: JournalRecord): SnapshotTarget | null {
    switch (record.op) {
      case 'comment': {
        const thread = this.articleToWrite(record.comment.articleSlug);
        if (record.seq <= thread.journalSeq) return null;
        thread.addComment(record.comment);
        return thread;
      }
      case 'vote': {
        const thread = this.articleToWrite(record.articleSlug);
        if (record.seq <= thread.journalSeq) return null;
        thread.setVote(record.voter, record.commentId, record.vote);
        return thread;
      }
      case 'topicRequest':
        return added(this.topicRequests, record.seq, record.item);
      case 'bugReport':
        return added(this.bugReports, record.seq, record.item);
      case 'citySubmission':
        return added(this.citySubmissions, record.seq, record.item);
      case 'deleteComment': {
        const thread = this.articleToWrite(record.articleSlug);
        if (record.seq <= thread.journalSeq) return null;
        thread.deleteComment(record.commentId, record.deletedAt);
        return thread;
      }
      case 'answerTopicRequest':
        return changed(this.topicRequests, record.seq, (requests) => {
          requests.replace(record.item);
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
    }
  }
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

function added<Item extends object>(collection: Collection<Item>, seq: number, item: Item): SnapshotTarget | null {
  return changed(collection, seq, (items) => {
    items.add(item);
  });
}

/** Applies a change to a collection unless its snapshot already holds it. */
function changed<Item extends object>(
  collection: Collection<Item>,
  seq: number,
  change: (items: Collection<Item>) => void,
): SnapshotTarget | null {
  if (seq <= collection.journalSeq) return null;
  change(collection);
  return collection;
}
