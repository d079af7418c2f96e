/**
 * The PostgreSQL store (DATABASE_URL), for several instances sharing one
 * database. The schema is in `migrations/`, applied at open; the constraints
 * there keep the rules under concurrency. Every write is one transaction
 * that ends by bumping the revision of what it changes, so every instance's
 * cached renders follow it. The site's hot paths (comments, votes, the ban
 * check) go in batches, many calls a round trip and a commit (batcher.ts).
 */
import pg from 'pg';
import { log } from '../../observability/log.ts';
import { newBugReport, newCitySubmission, newComment, newTopicRequest } from '../records.ts';
import {
  threadTopic,
  type BugReport,
  type CitySubmission,
  type CommentFilter,
  type ExportRecord,
  type ImportCounts,
  type NewBugReport,
  type NewCitySubmission,
  type NewComment,
  type NewTopicRequest,
  type NotificationChannel,
  type OutboxEntry,
  type OutboxKey,
  type ReviewQueue,
  type RevisionTopic,
  type StoredComment,
  type SpentLink,
  type StoreStats,
  type TopicRequest,
  type TopicRequestAnswer,
  type VoteTarget,
  type VoteValue,
  type CastVote,
} from '../types.ts';
import type { StoreEngine } from '../roles.ts';
import { migrate } from './migrate.ts';
import { Batcher, sqlState } from './batcher.ts';
import { BanWatch } from './ban-watch.ts';
import { connectionSettings } from './connection.ts';
import { Gate } from './gate.ts';
import { BUG_REPORT_ROWS, CITY_SUBMISSION_ROWS, COMMENT_ROWS, insertStatement, TOPIC_REQUEST_ROWS } from './inserts.ts';
import { claimOutbox, emailTurn, outboxDepth, outboxFailed, outboxReleased, outboxSent, withOutbox } from './outbox.ts';
import type { Notified } from '../outbox.ts';
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
import { bumpRevision, inTransaction, run, SALT_SETTING } from './sql.ts';
import { applyVotesLocked, applyVotesOptimistically, VOTE_CHANGED_MEANWHILE, type VoteCall, type VoteOutcome } from './vote-batch.ts';
import { exportRecords, importRecords } from './transfer.ts';

export interface PostgresStoreOptions {
  /** Connections this process may hold at most. */
  poolSize: number;
  /**
   * Limits on connecting and on each statement, in milliseconds, or null for
   * none: the site keeps them short so that a write fails within 2 s when
   * PostgreSQL does not answer; the owner's tool runs long statements.
   */
  timeoutMs: number | null;
  /** Whether the owner's bans are held in memory and followed (ban-watch.ts), as the site does, or asked for at each check. */
  watchBans: boolean;
  /** The channels a new comment, request, report or submission is put in the outbox for. */
  notificationChannels: readonly NotificationChannel[];
}

const SERVER_OPTIONS: PostgresStoreOptions = { poolSize: 20, timeoutMs: 1500, watchBans: true, notificationChannels: [] };

/** How the hot paths batch (src/server/store/postgres/batcher.ts): a few batches at once per kind, each of up to 100 calls. */
const BATCHES = { maxItems: 100, concurrency: 4 };

/**
 * Opens the store at `url` (completed as libpq would: connection.ts),
 * applying the migrations it lacks. Rejects when PostgreSQL cannot be
 * reached or a migration fails.
 */
export async function openPostgresStore(url: string, options: Partial<PostgresStoreOptions> = {}): Promise<StoreEngine> {
  const { poolSize, timeoutMs, watchBans, notificationChannels } = { ...SERVER_OPTIONS, ...options };
  const connection = connectionSettings(url);
  const pool = new pg.Pool({
    ...connection,
    max: poolSize,
    application_name: 'longhand',
    keepAlive: true,
    // Planned for the arrays each execution passes. A generic plan guesses a fixed row count for every unnest and, made
    // while a table is small, goes on joining it by scanning it whole as it grows (docs/architecture.md, "The store").
    options: '-c plan_cache_mode=force_custom_plan',
    ...(timeoutMs === null ? {} : { connectionTimeoutMillis: timeoutMs, statement_timeout: timeoutMs, query_timeout: timeoutMs + 300 }),
  });
  // An idle connection that breaks (PostgreSQL restarted) is dropped by the pool; unhandled, the event would end the process.
  pool.on('error', (error) => {
    log().error(`[store] a PostgreSQL connection failed: ${error.message}`);
  });
  try {
    const client = await pool.connect();
    try {
      await migrate(client);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const banWatch = watchBans
    ? new BanWatch({ ...connection, application_name: 'longhand-bans', keepAlive: true, connectionTimeoutMillis: timeoutMs ?? 0 })
    : null;
  await banWatch?.start();
  return new PostgresStore(pool, poolSize, banWatch, notificationChannels);
}

class PostgresStore implements StoreEngine {
  readonly #pool: pg.Pool;
  readonly #gate: Gate;
  readonly #banWatch: BanWatch | null;
  readonly #notificationChannels: readonly NotificationChannel[];
  #closing: Promise<void> | null = null;

  // Each write and ban check on the site's hot paths goes in a batch with the others of its kind that come in meanwhile.
  readonly #comments = new Batcher<StoredComment, StoredComment>((comments) => this.#insertComments(comments), {
    ...BATCHES,
    name: 'comments',
  });
  readonly #votes = new Batcher<VoteCall, VoteOutcome>((calls) => this.#applyVotes(calls), { ...BATCHES, name: 'votes' });
  readonly #bans = new Batcher<string, boolean>((hashes) => this.#areBanned(hashes), { ...BATCHES, name: 'bans' });
  readonly #latestComments = new Batcher<string, StoredComment | null>((hashes) => this.#latestCommentsBy(hashes), {
    ...BATCHES,
    name: 'latest comments',
  });

  constructor(pool: pg.Pool, poolSize: number, banWatch: BanWatch | null, notificationChannels: readonly NotificationChannel[]) {
    this.#pool = pool;
    this.#gate = new Gate(poolSize);
    this.#banWatch = banWatch;
    this.#notificationChannels = notificationChannels;
  }

  /** `statement` with the outbox entries of the records it stores, in the same statement. */
  #withOutbox(statement: { text: string; params: unknown[] }, notified: Notified[]): { text: string; params: unknown[] } {
    return withOutbox(statement, notified, this.#notificationChannels);
  }

  #query<Row extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<pg.QueryResult<Row>> {
    return this.#gate.run(() => run<Row>(this.#pool, text, params));
  }

  #transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.#gate.run(() => inTransaction(this.#pool, work));
  }

  async insertComment(comment: NewComment): Promise<StoredComment> {
    return this.#comments.submit(newComment(comment));
  }

  /** Comments of a batch, with their threads' revisions, in one statement: one round trip, one commit. */
  async #insertComments(comments: StoredComment[]): Promise<StoredComment[]> {
    const inserted = insertStatement(COMMENT_ROWS, comments);
    const { text, params } = this.#withOutbox(
      {
        text: `WITH inserted AS (${inserted.text} RETURNING article_slug)
       INSERT INTO revisions (topic, revision)
       SELECT 'thread:' || article_slug, count(*) FROM inserted GROUP BY article_slug ORDER BY 1
       ON CONFLICT (topic) DO UPDATE SET revision = revisions.revision + excluded.revision`,
        params: inserted.params,
      },
      comments.map((record) => ({ kind: 'comment', record })),
    );
    await this.#query(text, params);
    return comments;
  }

  async getComment(articleSlug: string, id: string): Promise<StoredComment | null> {
    const { rows } = await this.#query<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = $1 AND article_slug = $2`, [
      id,
      articleSlug,
    ]);
    return rows[0] ? commentOf(rows[0]) : null;
  }

  async listComments(articleSlug: string): Promise<StoredComment[]> {
    const { rows } = await this.#query<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM comments WHERE article_slug = $1 AND status = 'published' ORDER BY position`,
      [articleSlug],
    );
    return rows.map(commentOf);
  }

  async latestComments(articleSlugs: readonly string[], limit: number): Promise<StoredComment[]> {
    // Walks comments_newest from the newest, so a feed reads its few rows whatever the store holds.
    const { rows } = await this.#query<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM comments
       WHERE article_slug = ANY($1) AND status = 'published' AND deleted_at IS NULL
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [articleSlugs, limit],
    );
    return rows.map(commentOf);
  }

  async everPublished(readerHash: string): Promise<boolean> {
    const { rows } = await this.#query<{ published: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM comments WHERE author_hash = $1 AND status = 'published') AS published",
      [readerHash],
    );
    return rows[0]?.published ?? false;
  }

  latestCommentBy(authorHash: string): Promise<StoredComment | null> {
    return this.#latestComments.submit(authorHash);
  }

  /** Each reader's newest comment, in one query: an index read that stops at the first row of each. */
  async #latestCommentsBy(authorHashes: string[]): Promise<(StoredComment | null)[]> {
    const { rows } = await this.#query<CommentRow>(
      `SELECT newest.* FROM unnest($1::text[]) AS reader (hash)
       CROSS JOIN LATERAL (
         SELECT ${COMMENT_COLUMNS} FROM comments WHERE author_hash = reader.hash ORDER BY position DESC LIMIT 1
       ) AS newest`,
      [authorHashes],
    );
    const newest = new Map(rows.map((row) => [row.author_hash, commentOf(row)]));
    return authorHashes.map((hash) => newest.get(hash) ?? null);
  }

  async articleScore(articleSlug: string): Promise<number> {
    const { rows } = await this.#query<{ score: number }>('SELECT score FROM article_scores WHERE article_slug = $1', [articleSlug]);
    return rows[0]?.score ?? 0;
  }

  applyVote(target: VoteTarget, voter: string, decide: (current: VoteValue) => VoteValue): Promise<VoteOutcome> {
    return this.#votes.submit({ target, voter, decide });
  }

  /** A batch of votes, read without locks first; locked and applied again only when one changed meanwhile (vote-batch.ts). */
  async #applyVotes(calls: VoteCall[]): Promise<VoteOutcome[]> {
    try {
      return await this.#gate.run(() => applyVotesOptimistically(this.#pool, calls));
    } catch (error) {
      if (sqlState(error) !== VOTE_CHANGED_MEANWHILE) throw error;
      return this.#transaction((client) => applyVotesLocked(client, calls));
    }
  }

  async votesOf(articleSlug: string, voter: string): Promise<{ article: VoteValue; comments: Record<string, CastVote> }> {
    const { rows } = await this.#query<{ comment_id: string | null; vote: CastVote }>(
      `SELECT NULL AS comment_id, vote FROM article_votes WHERE article_slug = $1 AND voter = $2 AND vote <> 0
       UNION ALL
       SELECT comment_id, vote FROM comment_votes WHERE article_slug = $1 AND voter = $2 AND vote <> 0`,
      [articleSlug, voter],
    );
    const votes: { article: VoteValue; comments: Record<string, CastVote> } = { article: 0, comments: {} };
    for (const row of rows) {
      if (row.comment_id === null) votes.article = row.vote;
      else votes.comments[row.comment_id] = row.vote;
    }
    return votes;
  }

  /**
   * The request and the revision of /answers in one statement: the
   * revision's row, which every topic request locks, is held for the commit
   * only, not across a round trip to this process, which under load lasts
   * long enough for the requests queueing on that row to run out of their
   * statement timeout.
   */
  async insertTopicRequest(request: NewTopicRequest): Promise<TopicRequest> {
    const stored = newTopicRequest(request);
    const inserted = insertStatement(TOPIC_REQUEST_ROWS, [stored]);
    const { text, params } = this.#withOutbox(
      {
        text: `WITH inserted AS (${inserted.text} RETURNING id)
       INSERT INTO revisions (topic, revision) SELECT 'topic-requests', 1 FROM inserted
       ON CONFLICT (topic) DO UPDATE SET revision = revisions.revision + 1`,
        params: inserted.params,
      },
      [{ kind: 'topicRequest', record: stored }],
    );
    await this.#query(text, params);
    return stored;
  }

  async listTopicRequests(): Promise<TopicRequest[]> {
    const { rows } = await this.#query<TopicRequestRow>(
      `SELECT ${TOPIC_REQUEST_COLUMNS} FROM topic_requests WHERE status <> 'waiting' ORDER BY position DESC`,
    );
    return rows.map(topicRequestOf);
  }

  async insertBugReport(report: NewBugReport): Promise<BugReport> {
    const stored = newBugReport(report);
    const { text, params } = this.#withOutbox(insertStatement(BUG_REPORT_ROWS, [stored]), [{ kind: 'bugReport', record: stored }]);
    await this.#query(text, params);
    return stored;
  }

  async insertCitySubmission(submission: NewCitySubmission): Promise<CitySubmission> {
    const stored = newCitySubmission(submission);
    const { text, params } = this.#withOutbox(insertStatement(CITY_SUBMISSION_ROWS, [stored]), [
      { kind: 'citySubmission', record: stored },
    ]);
    await this.#query(text, params);
    return stored;
  }

  isBanned(readerHash: string): Promise<boolean> {
    const known = this.#banWatch?.has(readerHash) ?? null;
    return known === null ? this.#bans.submit(readerHash) : Promise.resolve(known);
  }

  /** Which of these readers the owner banned, in one query. */
  async #areBanned(readerHashes: string[]): Promise<boolean[]> {
    const { rows } = await this.#query<{ reader_hash: string }>('SELECT reader_hash FROM bans WHERE reader_hash = ANY($1::text[])', [
      readerHashes,
    ]);
    const banned = new Set(rows.map((row) => row.reader_hash));
    return readerHashes.map((hash) => banned.has(hash));
  }

  async keptSalt(make: () => string): Promise<string> {
    // Two instances starting at once: the second insert does nothing and both read the first one's salt.
    await this.#query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [SALT_SETTING, make()]);
    const { rows } = await this.#query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [SALT_SETTING]);
    const salt = rows[0]?.value;
    if (!salt) throw new Error('The salt setting vanished while it was read');
    return salt;
  }

  async findComment(id: string): Promise<StoredComment | null> {
    const { rows } = await this.#query<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = $1`, [id]);
    return rows[0] ? commentOf(rows[0]) : null;
  }

  approveComment(id: string): Promise<StoredComment | null> {
    return this.#changePending(
      `UPDATE comments SET status = 'published' WHERE id = $1 AND status = 'pending' RETURNING ${COMMENT_COLUMNS}`,
      id,
    );
  }

  removePendingComment(id: string): Promise<StoredComment | null> {
    return this.#changePending(`DELETE FROM comments WHERE id = $1 AND status = 'pending' RETURNING ${COMMENT_COLUMNS}`, id);
  }

  /** Approves or removes a pending comment with its thread's revision, in one transaction; null when none has this id. */
  #changePending(statement: string, id: string): Promise<StoredComment | null> {
    return this.#transaction(async (client) => {
      const { rows } = await run<CommentRow>(client, statement, [id]);
      const changed = rows[0];
      if (!changed) return null;
      await bumpRevision(client, threadTopic(changed.article_slug));
      return commentOf(changed);
    });
  }

  deleteComment(id: string): Promise<StoredComment | null> {
    return this.#transaction(async (client) => {
      const { rows } = await run<CommentRow>(
        client,
        `UPDATE comments SET body = '', deleted_at = coalesce(deleted_at, now()) WHERE id = $1 RETURNING ${COMMENT_COLUMNS}`,
        [id],
      );
      const deleted = rows[0];
      if (!deleted) return null;
      await bumpRevision(client, threadTopic(deleted.article_slug));
      return commentOf(deleted);
    });
  }

  moderateTopicRequest(id: string, verdict: 'approve' | 'remove'): Promise<TopicRequest | null> {
    return this.#transaction(async (client) => {
      const { rows } = await run<TopicRequestRow>(
        client,
        verdict === 'approve'
          ? `UPDATE topic_requests SET status = 'pending' WHERE id = $1 AND status = 'waiting' RETURNING ${TOPIC_REQUEST_COLUMNS}`
          : `DELETE FROM topic_requests WHERE id = $1 AND status = 'waiting' RETURNING ${TOPIC_REQUEST_COLUMNS}`,
        [id],
      );
      const moderated = rows[0];
      if (!moderated) return null;
      await bumpRevision(client, 'topic-requests');
      return topicRequestOf(moderated);
    });
  }

  answerTopicRequest(id: string, answer: TopicRequestAnswer): Promise<TopicRequest | null> {
    return this.#transaction(async (client) => {
      const { rows } = await run<TopicRequestRow>(
        client,
        `UPDATE topic_requests SET status = $2, answer_url = $3 WHERE id = $1 RETURNING ${TOPIC_REQUEST_COLUMNS}`,
        [id, answer.status, answer.status === 'answered' ? answer.answerUrl : null],
      );
      const answered = rows[0];
      if (!answered) return null;
      await bumpRevision(client, 'topic-requests');
      return topicRequestOf(answered);
    });
  }

  async markReviewed(kind: 'bugReport' | 'citySubmission', id: string): Promise<boolean> {
    const table = kind === 'bugReport' ? 'bug_reports' : 'city_submissions';
    const { rowCount } = await this.#query(`UPDATE ${table} SET reviewed_at = coalesce(reviewed_at, now()) WHERE id = $1`, [id]);
    return (rowCount ?? 0) > 0;
  }

  async reviewQueue(): Promise<ReviewQueue> {
    const [comments, topicRequests, bugReports, citySubmissions] = await Promise.all([
      this.#query<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE status = 'pending' ORDER BY position`),
      this.#query<TopicRequestRow>(
        `SELECT ${TOPIC_REQUEST_COLUMNS} FROM topic_requests WHERE status IN ('waiting', 'pending') ORDER BY position`,
      ),
      this.#query<BugReportRow>(`SELECT ${BUG_REPORT_COLUMNS} FROM bug_reports WHERE reviewed_at IS NULL ORDER BY position`),
      this.#query<CitySubmissionRow>(`SELECT ${CITY_SUBMISSION_COLUMNS} FROM city_submissions WHERE reviewed_at IS NULL ORDER BY position`),
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
      ? await this.#query('INSERT INTO bans (reader_hash, since) VALUES ($1, now()) ON CONFLICT (reader_hash) DO NOTHING', [readerHash])
      : await this.#query('DELETE FROM bans WHERE reader_hash = $1', [readerHash]);
    // This instance's own ban checks see the change from now on.
    await this.#banWatch?.caughtUp();
    return (rowCount ?? 0) > 0;
  }

  async spendLink({ link, expiresAt }: SpentLink): Promise<boolean> {
    // The primary key spends it once, whichever instance asks first; expired links leave on the way.
    const { rowCount } = await this.#query(
      `WITH dropped AS (DELETE FROM spent_links WHERE expires_at <= now())
       INSERT INTO spent_links (link, expires_at) VALUES ($1, $2) ON CONFLICT (link) DO NOTHING`,
      [link, expiresAt],
    );
    return (rowCount ?? 0) > 0;
  }

  async linkSpent(link: string): Promise<boolean> {
    const { rowCount } = await this.#query('SELECT 1 FROM spent_links WHERE link = $1', [link]);
    return (rowCount ?? 0) > 0;
  }

  async recentComments({ waiting, articleSlug, authorHash, before }: CommentFilter, limit: number): Promise<StoredComment[]> {
    const { rows } = await this.#query<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM comments
       WHERE ($1::text IS NULL OR article_slug = $1) AND ($2::text IS NULL OR author_hash = $2) AND ($3::timestamptz IS NULL OR created_at < $3)
         AND ($5::boolean IS NOT TRUE OR status = 'pending')
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [articleSlug ?? null, authorHash ?? null, before ?? null, limit, waiting === true],
    );
    return rows.map(commentOf);
  }

  async readersNamed(author: string): Promise<string[]> {
    const { rows } = await this.#query<{ author_hash: string }>(
      'SELECT DISTINCT author_hash FROM comments WHERE author = $1 ORDER BY author_hash',
      [author],
    );
    return rows.map((row) => row.author_hash);
  }

  async stats(): Promise<StoreStats> {
    const { rows } = await this.#query<Record<string, string>>(
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
    };
  }

  // The owner's tool runs these alone, outside the gate: an export holds its connection for as long as it is read.
  exportRecords(): AsyncIterable<ExportRecord> {
    return exportRecords(this.#pool);
  }

  importRecords(records: AsyncIterable<ExportRecord> | Iterable<ExportRecord>): Promise<ImportCounts> {
    return importRecords(this.#pool, records);
  }

  claimNotifications(channel: NotificationChannel, limit: number, leaseMs: number): Promise<OutboxEntry[]> {
    return this.#gate.run(() => claimOutbox(this.#pool, channel, limit, leaseMs));
  }

  notificationsSent(entries: readonly OutboxKey[]): Promise<void> {
    return this.#gate.run(() => outboxSent(this.#pool, entries));
  }

  notificationsFailed(entries: readonly OutboxKey[], dueAt: string): Promise<void> {
    return this.#gate.run(() => outboxFailed(this.#pool, entries, dueAt));
  }

  notificationsReleased(entries: readonly OutboxKey[]): Promise<void> {
    return this.#gate.run(() => outboxReleased(this.#pool, entries));
  }

  emailTurn(holder: string, leaseMs: number): Promise<boolean> {
    return this.#gate.run(() => emailTurn(this.#pool, holder, leaseMs));
  }

  outboxDepth(): Promise<Record<NotificationChannel, number>> {
    return this.#gate.run(() => outboxDepth(this.#pool));
  }

  async revision(topic: RevisionTopic): Promise<string> {
    // Each thread's counter only grows, so their sum changes whenever one does; a row of its own would make every write queue on it.
    const { rows } =
      topic === 'threads'
        ? await this.#query<{ revision: string }>(
            "SELECT coalesce(sum(revision), 0)::text AS revision FROM revisions WHERE topic LIKE 'thread:%'",
          )
        : await this.#query<{ revision: string }>('SELECT revision FROM revisions WHERE topic = $1', [topic]);
    return rows[0]?.revision ?? '0';
  }

  // Straight to the pool, outside the gate: a burst of writes queued there says nothing of whether PostgreSQL answers.
  async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
  }

  close(): Promise<void> {
    // Requests already let in (a client that hung up leaves its write queued) finish before the connections go.
    this.#closing ??= Promise.all([this.#comments.idle(), this.#votes.idle(), this.#bans.idle(), this.#banWatch?.close()])
      .then(() => this.#gate.idle())
      .then(() => this.#pool.end());
    return this.#closing;
  }
}
