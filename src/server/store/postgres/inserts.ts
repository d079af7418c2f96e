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

/** Inserts of records as they are stored, several rows a statement; each skips an id already there and resolves with how many it added. */

/** Comments as stored; the parent's depth goes along so the foreign key checks it. */
export async function insertComments(db: Queryable, comments: readonly StoredComment[]): Promise<number> {
  if (comments.length === 0) return 0;
  const { text, params } = valuesList(
    comments.map((comment) => [...commentValues(comment), comment.parentId === null ? null : comment.depth - 1]),
  );
  const result = await db.query(
    `INSERT INTO comments (${COMMENT_COLUMNS}, parent_depth) VALUES ${text} ON CONFLICT (id) DO NOTHING`,
    params,
  );
  return result.rowCount ?? 0;
}

export async function insertTopicRequests(db: Queryable, items: readonly TopicRequest[]): Promise<number> {
  if (items.length === 0) return 0;
  const { text, params } = valuesList(items.map(topicRequestValues));
  const result = await db.query(`INSERT INTO topic_requests (${TOPIC_REQUEST_COLUMNS}) VALUES ${text} ON CONFLICT (id) DO NOTHING`, params);
  return result.rowCount ?? 0;
}

export async function insertBugReports(db: Queryable, items: readonly BugReport[]): Promise<number> {
  if (items.length === 0) return 0;
  const { text, params } = valuesList(items.map(bugReportValues));
  const result = await db.query(`INSERT INTO bug_reports (${BUG_REPORT_COLUMNS}) VALUES ${text} ON CONFLICT (id) DO NOTHING`, params);
  return result.rowCount ?? 0;
}

export async function insertCitySubmissions(db: Queryable, items: readonly CitySubmission[]): Promise<number> {
  if (items.length === 0) return 0;
  const { text, params } = valuesList(items.map(citySubmissionValues));
  const result = await db.query(
    `INSERT INTO city_submissions (${CITY_SUBMISSION_COLUMNS}) VALUES ${text} ON CONFLICT (id) DO NOTHING`,
    params,
  );
  return result.rowCount ?? 0;
}
