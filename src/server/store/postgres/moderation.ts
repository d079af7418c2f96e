import { countSubscribers } from '../records.ts';
import type { ModerationStore } from '../roles.ts';
import {
  threadTopic,
  type CommentFilter,
  type ReviewQueue,
  type SpentLink,
  type StoredComment,
  type StoreStats,
  type Subscriber,
  type TopicRequest,
  type TopicRequestAnswer,
} from '../types.ts';
import { Batcher, BATCHES } from './batcher.ts';
import type { PostgresCore } from './engine.ts';
import {
  BUG_REPORT_COLUMNS,
  bugReportOf,
  CITY_SUBMISSION_COLUMNS,
  citySubmissionOf,
  COMMENT_COLUMNS,
  commentOf,
  TOPIC_REQUEST_COLUMNS,
  topicRequestOf,
  type BugReportRow,
  type CitySubmissionRow,
  type CommentRow,
  type TopicRequestRow,
} from './rows.ts';
import { bumpRevision, run } from './sql.ts';

/** The owner's operations on PostgreSQL, each change one transaction with the revision it bumps; the ban check in batches. */
export class PostgresModeration implements ModerationStore {
  readonly #core: PostgresCore;
  // Every write checks its reader's ban: the checks that come in meanwhile go in one query.
  readonly #bans = new Batcher<string, boolean>((hashes) => this.#areBanned(hashes), { ...BATCHES, name: 'bans' });

  constructor(core: PostgresCore) {
    this.#core = core;
    core.drainOnClose(this.#bans);
  }

  isBanned(readerHash: string): Promise<boolean> {
    const known = this.#core.banWatch?.has(readerHash) ?? null;
    return known === null ? this.#bans.submit(readerHash) : Promise.resolve(known);
  }

  async findComment(id: string): Promise<StoredComment | null> {
    const { rows } = await this.#core.query<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = $1`, [id]);
    return rows[0] ? commentOf(rows[0]) : null;
  }

  approveComment(id: string): Promise<StoredComment | null> {
    return this.#changeComment(
      `UPDATE comments SET status = 'published' WHERE id = $1 AND status = 'pending' RETURNING ${COMMENT_COLUMNS}`,
      id,
    );
  }

  removePendingComment(id: string): Promise<StoredComment | null> {
    return this.#changeComment(`DELETE FROM comments WHERE id = $1 AND status = 'pending' RETURNING ${COMMENT_COLUMNS}`, id);
  }

  deleteComment(id: string): Promise<StoredComment | null> {
    return this.#changeComment(
      `UPDATE comments SET body = '', deleted_at = coalesce(deleted_at, now()) WHERE id = $1 RETURNING ${COMMENT_COLUMNS}`,
      id,
    );
  }

  moderateTopicRequest(id: string, verdict: 'approve' | 'remove'): Promise<TopicRequest | null> {
    return this.#changeTopicRequest(
      verdict === 'approve'
        ? `UPDATE topic_requests SET status = 'pending' WHERE id = $1 AND status = 'waiting' RETURNING ${TOPIC_REQUEST_COLUMNS}`
        : `DELETE FROM topic_requests WHERE id = $1 AND status = 'waiting' RETURNING ${TOPIC_REQUEST_COLUMNS}`,
      [id],
    );
  }

  answerTopicRequest(id: string, answer: TopicRequestAnswer): Promise<TopicRequest | null> {
    return this.#changeTopicRequest(
      `UPDATE topic_requests SET status = $2, answer_url = $3 WHERE id = $1 RETURNING ${TOPIC_REQUEST_COLUMNS}`,
      [id, answer.status, answer.status === 'answered' ? answer.answerUrl : null],
    );
  }

  async markReviewed(kind: 'bugReport' | 'citySubmission', id: string): Promise<boolean> {
    const table = kind === 'bugReport' ? 'bug_reports' : 'city_submissions';
    const { rowCount } = await this.#core.query(`UPDATE ${table} SET reviewed_at = coalesce(reviewed_at, now()) WHERE id = $1`, [id]);
    return (rowCount ?? 0) > 0;
  }

  async reviewQueue(): Promise<ReviewQueue> {
    const [comments, topicRequests, bugReports, citySubmissions] = await Promise.all([
      this.#core.query<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE status = 'pending' ORDER BY position`),
      this.#core.query<TopicRequestRow>(
        `SELECT ${TOPIC_REQUEST_COLUMNS} FROM topic_requests WHERE status IN ('waiting', 'pending') ORDER BY position`,
      ),
      this.#core.query<BugReportRow>(`SELECT ${BUG_REPORT_COLUMNS} FROM bug_reports WHERE reviewed_at IS NULL ORDER BY position`),
      this.#core.query<CitySubmissionRow>(
        `SELECT ${CITY_SUBMISSION_COLUMNS} FROM city_submissions WHERE reviewed_at IS NULL ORDER BY position`,
      ),
    ]);
    return {
      comments: comments.rows.map(commentOf),
      topicRequests: topicRequests.rows.map(topicRequestOf),
      bugReports: bugReports.rows.map(bugReportOf),
      citySubmissions: citySubmissions.rows.map(citySubmissionOf),
    };
  }

  async setBan(readerHash: string, banned: boolean): Promise<boolean> {
    const { rowCount } = banned
      ? await this.#core.query('INSERT INTO bans (reader_hash, since) VALUES ($1, now()) ON CONFLICT (reader_hash) DO NOTHING', [
          readerHash,
        ])
      : await this.#core.query('DELETE FROM bans WHERE reader_hash = $1', [readerHash]);
    // This instance's own ban checks see the change from now on.
    await this.#core.banWatch?.caughtUp();
    return (rowCount ?? 0) > 0;
  }

  async spendLink({ link, expiresAt }: SpentLink): Promise<boolean> {
    // The primary key spends it once, whichever instance asks first; expired links leave on the way.
    const { rowCount } = await this.#core.query(
      `WITH dropped AS (DELETE FROM spent_links WHERE expires_at <= now())
       INSERT INTO spent_links (link, expires_at) VALUES ($1, $2) ON CONFLICT (link) DO NOTHING`,
      [link, expiresAt],
    );
    return (rowCount ?? 0) > 0;
  }

  async linkSpent(link: string): Promise<boolean> {
    const { rowCount } = await this.#core.query('SELECT 1 FROM spent_links WHERE link = $1', [link]);
    return (rowCount ?? 0) > 0;
  }

  async recentComments({ waiting, articleSlug, authorHash, before }: CommentFilter, limit: number): Promise<StoredComment[]> {
    const { rows } = await this.#core.query<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM comments
       WHERE ($1::text IS NULL OR article_slug = $1) AND ($2::text IS NULL OR author_hash = $2) AND ($3::timestamptz IS NULL OR created_at < $3)
         AND ($5::boolean IS NOT TRUE OR status = 'pending')
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [articleSlug ?? null, authorHash ?? null, before ?? null, limit, waiting === true],
    );
    return rows.map(commentOf);
  }

  async readersNamed(author: string): Promise<string[]> {
    const { rows } = await this.#core.query<{ author_hash: string }>(
      'SELECT DISTINCT author_hash FROM comments WHERE author = $1 ORDER BY author_hash',
      [author],
    );
    return rows.map((row) => row.author_hash);
  }

  async stats(): Promise<StoreStats> {
    const { rows } = await this.#core.query<Record<string, string>>(
      `SELECT
         (SELECT count(DISTINCT article_slug) FROM comments) AS articles,
         (SELECT count(*) FROM comments) AS comments,
         (SELECT count(*) FROM comments WHERE deleted_at IS NOT NULL) AS deleted_comments,
         (SELECT count(*) FROM comments WHERE status = 'pending') AS pending_comments,
         (SELECT count(*) FROM article_votes WHERE vote <> 0) + (SELECT count(*) FROM comment_votes WHERE vote <> 0) AS votes,
         (SELECT count(*) FROM topic_requests WHERE status = 'waiting') AS waiting_requests,
         (SELECT count(*) FROM topic_requests WHERE status = 'pending') AS pending_requests,
         (SELECT count(*) FROM topic_requests WHERE status = 'answered') AS answered_requests,
         (SELECT count(*) FROM topic_requests WHERE status = 'declined') AS declined_requests,
         (SELECT count(*) FROM bug_reports) AS bug_reports,
         (SELECT count(*) FROM bug_reports WHERE reviewed_at IS NULL) AS pending_bug_reports,
         (SELECT count(*) FROM city_submissions) AS city_submissions,
         (SELECT count(*) FROM city_submissions WHERE reviewed_at IS NULL) AS pending_city_submissions,
         (SELECT count(*) FROM bans) AS bans`,
    );
    const count = (name: string): number => Number(rows[0]?.[name] ?? 0);
    const subscribers = await this.#core.query<{ lang: Subscriber['lang']; status: Subscriber['status']; count: string }>(
      'SELECT lang, status, count(*) AS count FROM subscribers GROUP BY lang, status',
    );
    return {
      articles: count('articles'),
      comments: count('comments'),
      deletedComments: count('deleted_comments'),
      pendingComments: count('pending_comments'),
      votes: count('votes'),
      topicRequests: {
        waiting: count('waiting_requests'),
        pending: count('pending_requests'),
        answered: count('answered_requests'),
        declined: count('declined_requests'),
      },
      bugReports: { total: count('bug_reports'), pending: count('pending_bug_reports') },
      citySubmissions: { total: count('city_submissions'), pending: count('pending_city_submissions') },
      bans: count('bans'),
      subscribers: countSubscribers(subscribers.rows.map((row) => ({ ...row, count: Number(row.count) }))),
    };
  }

  /** Which of these readers the owner banned, in one query. */
  async #areBanned(readerHashes: string[]): Promise<boolean[]> {
    const { rows } = await this.#core.query<{ reader_hash: string }>('SELECT reader_hash FROM bans WHERE reader_hash = ANY($1::text[])', [
      readerHashes,
    ]);
    const banned = new Set(rows.map((row) => row.reader_hash));
    return readerHashes.map((hash) => banned.has(hash));
  }

  /** Changes one comment (`statement`, $1 its id) with its thread's revision, in one transaction; null when no comment changed. */
  #changeComment(statement: string, id: string): Promise<StoredComment | null> {
    return this.#core.transaction(async (client) => {
      const { rows } = await run<CommentRow>(client, statement, [id]);
      const changed = rows[0];
      if (!changed) return null;
      await bumpRevision(client, threadTopic(changed.article_slug));
      return commentOf(changed);
    });
  }

  /** Changes one topic request with the revision of /answers, in one transaction; null when none changed. */
  #changeTopicRequest(statement: string, params: unknown[]): Promise<TopicRequest | null> {
    return this.#core.transaction(async (client) => {
      const { rows } = await run<TopicRequestRow>(client, statement, params);
      const changed = rows[0];
      if (!changed) return null;
      await bumpRevision(client, 'topic-requests');
      return topicRequestOf(changed);
    });
  }
}
