import type { BugReport, CitySubmission, StoredComment, TopicRequest } from '../types.ts';
import {
  BUG_REPORT_COLUMNS,
  bugReportValues,
  CITY_SUBMISSION_COLUMNS,
  citySubmissionValues,
  COMMENT_COLUMNS,
  commentValues,
  TOPIC_REQUEST_COLUMNS,
  topicRequestValues,
} from './rows.ts';
import { valuesList, type Queryable } from './sql.ts';

/** A table that records are inserted into as they are stored: its columns, and each record's values in their order. */
interface InsertTarget<Item> {
  table: string;
  columns: string;
  values: (item: Item) => unknown[];
}

/** Comments as stored; the parent's depth goes along so that the foreign key checks it. */
export const COMMENT_ROWS: InsertTarget<StoredComment> = {
  table: 'comments',
  columns: `${COMMENT_COLUMNS}, parent_depth`,
  values: (comment) => [...commentValues(comment), comment.parentId === null ? null : comment.depth - 1],
};
export const TOPIC_REQUEST_ROWS: InsertTarget<TopicRequest> = {
  table: 'topic_requests',
  columns: TOPIC_REQUEST_COLUMNS,
  values: topicRequestValues,
};
export const BUG_REPORT_ROWS: InsertTarget<BugReport> = { table: 'bug_reports', columns: BUG_REPORT_COLUMNS, values: bugReportValues };
export const CITY_SUBMISSION_ROWS: InsertTarget<CitySubmission> = {
  table: 'city_submissions',
  columns: CITY_SUBMISSION_COLUMNS,
  values: citySubmissionValues,
};

/** Inserts records, several rows a statement, skipping an id already there; resolves with how many it added. */
export async function insertRows<Item>(db: Queryable, target: InsertTarget<Item>, items: readonly Item[]): Promise<number> {
  if (items.length === 0) return 0;
  const { text, params } = valuesList(items.map(target.values));
  const result = await db.query(`INSERT INTO ${target.table} (${target.columns}) VALUES ${text} ON CONFLICT (id) DO NOTHING`, params);
  return result.rowCount ?? 0;
}
