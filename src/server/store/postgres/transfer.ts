/**
 * Export and import of the PostgreSQL store (npm run data -- export | import):
 * a stream of records in the shape every engine shares, so that moving from
 * one engine to the other is an export and an import.
 */
import type { Pool, PoolClient } from 'pg';
import type { TransferStore } from '../roles.ts';
import { threadTopic, type CastVote, type ExportRecord, type ImportCounts, type Reaction } from '../types.ts';
import type { PostgresCore } from './engine.ts';
import { BUG_REPORT_ROWS, CITY_SUBMISSION_ROWS, COMMENT_ROWS, insertRows, OUTBOX_ROWS, TOPIC_REQUEST_ROWS } from './inserts.ts';
import {
  BUG_REPORT_COLUMNS,
  bugReportOf,
  CITY_SUBMISSION_COLUMNS,
  citySubmissionOf,
  COMMENT_COLUMNS,
  commentOf,
  OUTBOX_COLUMNS,
  outboxEntryOf,
  TOPIC_REQUEST_COLUMNS,
  topicRequestOf,
  type BugReportRow,
  type CitySubmissionRow,
  type CommentRow,
  type OutboxRow,
  type TopicRequestRow,
} from './rows.ts';
import { INSERT_MENTIONS, MENTION_COLUMNS, mentionColumns, mentionOf, type MentionRow } from './mentions.ts';
import { DELIVERY_COLUMNS, deliveryColumns, deliveryOf, INSERT_DELIVERIES, type DeliveryRow } from './deliveries.ts';
import { FOLLOWER_COLUMNS, followerOf, instanceBlockOf, type FollowerRow } from './followers.ts';
import { insertNewsletterRecords, NEWSLETTER_SOURCES } from './newsletter-transfer.ts';
import { bumpRevision, inTransaction, SALT_SETTING, SECRET_SETTING_PREFIX, valuesList } from './sql.ts';

/** Rows fetched at a time from a cursor, and records inserted by one statement. */
const BATCH = 500;

interface VoteRow {
  article_slug: string;
  comment_id: string | null;
  voter: string;
  vote: CastVote;
}

/** What is exported, in import order: the salt, comments (parents before replies), votes, the rest, and the notifications not sent yet. */
const SOURCES: { query: string; record: (row: never) => ExportRecord }[] = [
  {
    query: `SELECT value FROM settings WHERE name = '${SALT_SETTING}'`,
    record: (row: { value: string }) => ({ kind: 'salt', salt: row.value }),
  },
  {
    query: `SELECT substr(name, ${SECRET_SETTING_PREFIX.length + 1}) AS name, value FROM settings
            WHERE starts_with(name, '${SECRET_SETTING_PREFIX}') ORDER BY name`,
    record: (row: { name: string; value: string }) => ({ kind: 'secret', name: row.name, value: row.value }),
  },
  {
    query: `SELECT ${COMMENT_COLUMNS} FROM comments ORDER BY position`,
    record: (row: CommentRow) => ({ kind: 'comment', comment: commentOf(row) }),
  },
  {
    query: `SELECT article_slug, NULL AS comment_id, voter, vote FROM article_votes WHERE vote <> 0
            UNION ALL SELECT article_slug, comment_id, voter, vote FROM comment_votes WHERE vote <> 0`,
    record: (row: VoteRow) => ({
      kind: 'vote',
      articleSlug: row.article_slug,
      commentId: row.comment_id,
      voter: row.voter,
      vote: row.vote,
    }),
  },
  {
    query: 'SELECT article_slug, kind, actor_id, at FROM reactions ORDER BY at, article_slug, kind, actor_id',
    record: (row: { article_slug: string; kind: Reaction['kind']; actor_id: string; at: Date }) => ({
      kind: 'reaction',
      item: { articleSlug: row.article_slug, kind: row.kind, actorId: row.actor_id, at: row.at.toISOString() },
    }),
  },
  {
    query: `SELECT ${TOPIC_REQUEST_COLUMNS} FROM topic_requests ORDER BY position`,
    record: (row: TopicRequestRow) => ({ kind: 'topicRequest', item: topicRequestOf(row) }),
  },
  {
    query: `SELECT ${BUG_REPORT_COLUMNS} FROM bug_reports ORDER BY position`,
    record: (row: BugReportRow) => ({ kind: 'bugReport', item: bugReportOf(row) }),
  },
  {
    query: `SELECT ${CITY_SUBMISSION_COLUMNS} FROM city_submissions ORDER BY position`,
    record: (row: CitySubmissionRow) => ({ kind: 'citySubmission', item: citySubmissionOf(row) }),
  },
  {
    query: 'SELECT reader_hash, since FROM bans ORDER BY since',
    record: (row: { reader_hash: string; since: Date }) => ({ kind: 'ban', readerHash: row.reader_hash, since: row.since.toISOString() }),
  },
  {
    query: 'SELECT link, expires_at FROM spent_links ORDER BY expires_at',
    record: (row: { link: string; expires_at: Date }) => ({ kind: 'spentLink', link: row.link, expiresAt: row.expires_at.toISOString() }),
  },
  {
    query: `SELECT ${FOLLOWER_COLUMNS} FROM followers ORDER BY followed_at, lang, actor_id`,
    record: (row: FollowerRow) => ({ kind: 'follower', item: followerOf(row) }),
  },
  {
    query: 'SELECT host, blocked_at FROM blocked_instances ORDER BY host',
    record: (row: { host: string; blocked_at: Date }) => ({ kind: 'instanceBlock', item: instanceBlockOf(row) }),
  },
  {
    // Leased or not: a lease is its sender's, and a sender of the store imported into starts without one.
    query: `SELECT ${OUTBOX_COLUMNS} FROM notification_outbox ORDER BY created_at, id`,
    record: (row: OutboxRow) => ({ kind: 'notification', entry: outboxEntryOf(row) }),
  },
  ...NEWSLETTER_SOURCES,
  {
    // Leased or not: a lease is its sender's.
    query: `SELECT ${DELIVERY_COLUMNS} FROM deliveries ORDER BY created_at, activity_id, inbox`,
    record: (row: DeliveryRow) => ({ kind: 'delivery', item: deliveryOf(row) }),
  },
  {
    query: `SELECT ${MENTION_COLUMNS} FROM mentions ORDER BY received_at, source, target`,
    record: (row: MentionRow) => ({ kind: 'mention', item: mentionOf(row) }),
  },
];

/** Export and import on PostgreSQL. The owner's tool runs these alone, outside the gate: an export holds its connection for as long as it is read. */
export class PostgresTransfer implements TransferStore {
  readonly #pool: Pool;

  constructor(core: PostgresCore) {
    this.#pool = core.pool;
  }

  /** Everything, from one snapshot of the database (writes may go on meanwhile), read through cursors. */
  async *exportRecords(): AsyncGenerator<ExportRecord> {
    const client = await this.#pool.connect();
    let finished = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      for (const { query, record } of SOURCES) {
        await client.query(`DECLARE export_rows NO SCROLL CURSOR FOR ${query}`);
        for (;;) {
          const { rows } = await client.query<never>(`FETCH ${BATCH} FROM export_rows`);
          if (rows.length === 0) break;
          for (const row of rows) yield record(row);
        }
        await client.query('CLOSE export_rows');
      }
      await client.query('COMMIT');
      finished = true;
    } finally {
      // A reader that stopped early leaves the transaction open: that connection is not reused.
      client.release(!finished);
    }
  }

  /**
   * Adds the records not there yet, in one transaction; scores are then counted
   * again from the votes, and the tables analyzed when anything was added.
   */
  async importRecords(records: AsyncIterable<ExportRecord> | Iterable<ExportRecord>): Promise<ImportCounts> {
    const counts = await addRecords(this.#pool, records);
    // Until its tables are analyzed, PostgreSQL plans the site's queries for the nearly empty tables it last saw:
    // autovacuum gets to them in a while after a bulk load, or never where it is off.
    if (counts.added > 0) await this.#pool.query('ANALYZE');
    return counts;
  }
}

/** What an import changed: the threads whose scores and revisions follow, and whether the topic requests did. */
interface Touched {
  threads: Set<string>;
  topicRequests: boolean;
}

function addRecords(pool: Pool, records: AsyncIterable<ExportRecord> | Iterable<ExportRecord>): Promise<ImportCounts> {
  return inTransaction(pool, async (client) => {
    const counts: ImportCounts = { added: 0, skipped: 0 };
    const touched: Touched = { threads: new Set(), topicRequests: false };
    let batch: ExportRecord[] = [];

    async function flush(): Promise<void> {
      const first = batch[0];
      if (!first) return;
      const added = await insertBatch(client, first.kind, batch, touched);
      counts.added += added;
      counts.skipped += batch.length - added;
      for (const record of batch) {
        if (record.kind === 'vote') touched.threads.add(record.articleSlug);
        else if (record.kind === 'reaction') touched.threads.add(record.item.articleSlug);
      }
      batch = [];
    }

    for await (const record of records) {
      if (batch.length > 0 && (batch.length >= BATCH || batch[0]?.kind !== record.kind || record.kind === 'salt')) await flush();
      batch.push(record);
    }
    await flush();
    if (counts.added > 0) {
      await recountScores(client, [...touched.threads]);
      for (const slug of touched.threads) await bumpRevision(client, threadTopic(slug));
    }
    if (touched.topicRequests) await bumpRevision(client, 'topic-requests');
    return counts;
  });
}

/** Adds a batch of records of one kind; resolves with how many were added. */
async function insertBatch(client: PoolClient, kind: ExportRecord['kind'], records: ExportRecord[], touched: Touched): Promise<number> {
  const of = <Kind extends ExportRecord['kind']>(wanted: Kind) =>
    records.filter((record): record is Extract<ExportRecord, { kind: Kind }> => record.kind === wanted);
  switch (kind) {
    case 'salt': {
      const result = await client.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
        SALT_SETTING,
        of('salt')[0]?.salt,
      ]);
      return result.rowCount ?? 0;
    }
    case 'secret':
      return insertNew(
        client,
        'settings (name, value)',
        of('secret').map((record) => [`${SECRET_SETTING_PREFIX}${record.name}`, record.value]),
      );
    case 'comment': {
      const comments = of('comment').map((record) => record.comment);
      for (const comment of comments) touched.threads.add(comment.articleSlug);
      return insertRows(client, COMMENT_ROWS, comments);
    }
    case 'vote':
      return insertVotes(client, of('vote'));
    case 'topicRequest': {
      const added = await insertRows(
        client,
        TOPIC_REQUEST_ROWS,
        of('topicRequest').map((record) => record.item),
      );
      touched.topicRequests ||= added > 0;
      return added;
    }
    case 'bugReport':
      return insertRows(
        client,
        BUG_REPORT_ROWS,
        of('bugReport').map((record) => record.item),
      );
    case 'citySubmission':
      return insertRows(
        client,
        CITY_SUBMISSION_ROWS,
        of('citySubmission').map((record) => record.item),
      );
    case 'ban':
      return insertNew(
        client,
        'bans (reader_hash, since)',
        of('ban').map((record) => [record.readerHash, record.since]),
      );
    case 'spentLink':
      return insertNew(
        client,
        'spent_links (link, expires_at)',
        of('spentLink').map((record) => [record.link, record.expiresAt]),
      );
    case 'follower':
    case 'instanceBlock':
    case 'reaction':
      return insertFediverseRecords(client, records);
    case 'notification':
      return insertRows(
        client,
        OUTBOX_ROWS,
        of('notification').map((record) => record.entry),
      );
    case 'appearance':
    case 'subscriber':
    case 'newsletterIssue':
      return insertNewsletterRecords(client, records);
    case 'delivery':
      return (await client.query(INSERT_DELIVERIES, deliveryColumns(of('delivery').map((record) => record.item)))).rowCount ?? 0;
    case 'mention': {
      const items = of('mention').map((record) => record.item);
      for (const item of items) if (item.direction === 'received') touched.threads.add(item.articleSlug);
      return (await client.query(INSERT_MENTIONS, mentionColumns(items))).rowCount ?? 0;
    }
  }
}

/** Adds followers, blocked instances or reactions (a batch is of one kind) not there yet; resolves with how many were added. */
function insertFediverseRecords(client: PoolClient, records: ExportRecord[]): Promise<number> {
  const rows = records.flatMap((record): [string, unknown[]][] => {
    switch (record.kind) {
      case 'follower': {
        const { lang, actorId, inbox, sharedInbox, followedAt } = record.item;
        return [[`followers (${FOLLOWER_COLUMNS})`, [lang, actorId, inbox, sharedInbox, followedAt]]];
      }
      case 'instanceBlock':
        return [['blocked_instances (host, blocked_at)', [record.item.host, record.item.blockedAt]]];
      case 'reaction': {
        const { articleSlug, kind, actorId, at } = record.item;
        return [['reactions (article_slug, kind, actor_id, at)', [articleSlug, kind, actorId, at]]];
      }
      default:
        return [];
    }
  });
  const [table] = rows[0] ?? [];
  return table === undefined
    ? Promise.resolve(0)
    : insertNew(
        client,
        table,
        rows.map(([, values]) => values),
      );
}

/** Adds the rows whose key (the first column) is not there yet; resolves with how many were added. */
async function insertNew(client: PoolClient, tableAndColumns: string, rows: unknown[][]): Promise<number> {
  const { text, params } = valuesList(rows);
  const result = await client.query(`INSERT INTO ${tableAndColumns} VALUES ${text} ON CONFLICT DO NOTHING`, params);
  return result.rowCount ?? 0;
}

/** Adds votes; a voter's removed vote (kept at 0) takes the imported one. */
async function insertVotes(client: PoolClient, votes: Extract<ExportRecord, { kind: 'vote' }>[]): Promise<number> {
  const onArticles = votes.filter((vote) => vote.commentId === null);
  const onComments = votes.filter((vote) => vote.commentId !== null);
  let added = 0;
  if (onArticles.length > 0) {
    const { text, params } = valuesList(onArticles.map((vote) => [vote.articleSlug, vote.voter, vote.vote]));
    const result = await client.query(
      `INSERT INTO article_votes (article_slug, voter, vote) VALUES ${text}
       ON CONFLICT (article_slug, voter) DO UPDATE SET vote = excluded.vote WHERE article_votes.vote = 0`,
      params,
    );
    added += result.rowCount ?? 0;
  }
  if (onComments.length > 0) {
    const { text, params } = valuesList(onComments.map((vote) => [vote.articleSlug, vote.voter, vote.commentId, vote.vote]));
    const result = await client.query(
      `INSERT INTO comment_votes (article_slug, voter, comment_id, vote) VALUES ${text}
       ON CONFLICT (article_slug, voter, comment_id) DO UPDATE SET vote = excluded.vote WHERE comment_votes.vote = 0`,
      params,
    );
    added += result.rowCount ?? 0;
  }
  return added;
}

/** Sets every score of these articles (each comment's and the article's own) to the sum of its votes. */
async function recountScores(client: PoolClient, articleSlugs: string[]): Promise<void> {
  await client.query(
    `UPDATE comments SET score = coalesce(counted.score, 0)
     FROM comments AS c LEFT JOIN (SELECT comment_id, sum(vote)::integer AS score FROM comment_votes GROUP BY comment_id) AS counted
       ON counted.comment_id = c.id
     WHERE comments.id = c.id AND c.article_slug = ANY($1) AND comments.score IS DISTINCT FROM coalesce(counted.score, 0)`,
    [articleSlugs],
  );
  await client.query(
    `INSERT INTO article_scores (article_slug, score)
     SELECT article_slug, sum(vote)::integer FROM article_votes WHERE article_slug = ANY($1) GROUP BY article_slug
     ON CONFLICT (article_slug) DO UPDATE SET score = excluded.score`,
    [articleSlugs],
  );
}
