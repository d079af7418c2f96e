import type { BugReport, CitySubmission, OutboxEntry, StoredComment, TopicRequest } from '../types.ts';
import {
  BUG_REPORT_COLUMNS,
  bugReportValues,
  CITY_SUBMISSION_COLUMNS,
  citySubmissionValues,
  COMMENT_COLUMNS,
  commentValues,
  OUTBOX_COLUMNS,
  TOPIC_REQUEST_COLUMNS,
  topicRequestValues,
} from './rows.ts';
import { asColumns, run, type Queryable } from './sql.ts';

/** A table that records are inserted into as they are stored: its columns, their types, and each record's values in their order. */
interface InsertTarget<Item> {
  table: string;
  columns: string;
  /** The PostgreSQL type of each column, in order: rows go in as one array a column. */
  types: readonly string[];
  values: (item: Item) => unknown[];
  /** The columns of its primary key, which an import skips a row already there by; `id` unless given. */
  key?: string;
}

/** Comments as stored; the parent's depth goes along so that the foreign key checks it. */
export const COMMENT_ROWS: InsertTarget<StoredComment> = {
  table: 'comments',
  columns: `${COMMENT_COLUMNS}, parent_depth`,
  types: [
    'text',
    'text',
    'text',
    'smallint',
    'text',
    'text',
    'text',
    'timestamptz',
    'integer',
    'timestamptz',
    'text',
    'json',
    'json',
    'smallint',
  ],
  values: (comment) => [...commentValues(comment), comment.parentId === null ? null : comment.depth - 1],
};
export const TOPIC_REQUEST_ROWS: InsertTarget<TopicRequest> = {
  table: 'topic_requests',
  columns: TOPIC_REQUEST_COLUMNS,
  types: ['text', 'text', 'text', 'text', 'text', 'text', 'timestamptz'],
  values: topicRequestValues,
};
export const BUG_REPORT_ROWS: InsertTarget<BugReport> = {
  table: 'bug_reports',
  columns: BUG_REPORT_COLUMNS,
  types: ['text', 'text', 'text', 'text', 'timestamptz', 'timestamptz'],
  values: bugReportValues,
};
export const CITY_SUBMISSION_ROWS: InsertTarget<CitySubmission> = {
  table: 'city_submissions',
  columns: CITY_SUBMISSION_COLUMNS,
  types: [
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'double precision',
    'double precision',
    'text',
    'double precision',
    'double precision',
    'double precision',
    'text',
    'timestamptz',
    'timestamptz',
  ],
  values: citySubmissionValues,
};

/** Notifications waiting to be sent (outbox.ts). */
export const OUTBOX_ROWS: InsertTarget<OutboxEntry> = {
  table: 'notification_outbox',
  columns: OUTBOX_COLUMNS,
  types: ['text', 'text', 'json', 'timestamptz', 'integer', 'timestamptz'],
  values: (entry) => [entry.id, entry.channel, JSON.stringify(entry.notification), entry.createdAt, entry.attempts, entry.dueAt],
  key: 'channel, created_at, id',
};

/**
 * The statement that inserts `items` into `target`, and its parameters (one
 * array a column), numbered from `first`. A live write's records have new
 * ids, never stored before, and go in as they are; `skipExisting` (an import,
 * which may be run twice) skips an id already there, at the cost of a
 * speculative insertion a row.
 */
export function insertStatement<Item>(
  target: InsertTarget<Item>,
  items: readonly Item[],
  { first = 1, skipExisting = false }: { first?: number; skipExisting?: boolean } = {},
): { text: string; params: unknown[] } {
  const params = asColumns(items.map(target.values), target.types.length);
  const arrays = target.types.map((type, column) => `$${column + first}::${type}[]`).join(', ');
  return {
    text: `INSERT INTO ${target.table} (${target.columns}) SELECT * FROM unnest(${arrays})${skipExisting ? ` ON CONFLICT (${target.key ?? 'id'}) DO NOTHING` : ''}`,
    params,
  };
}

/** Inserts records in one statement, skipping an id already there; resolves with how many it added. */
export async function insertRows<Item>(db: Queryable, target: InsertTarget<Item>, items: readonly Item[]): Promise<number> {
  if (items.length === 0) return 0;
  const { text, params } = insertStatement(target, items, { skipExisting: true });
  const result = await run(db, text, params);
  return result.rowCount ?? 0;
}
