import type { z } from 'zod';
import { bugReport, citySubmission, comment, outboxEntry, topicRequest } from '../shapes.ts';
import type {
  BugReport,
  CitySubmission,
  CommentStatus,
  NotificationChannel,
  OutboxEntry,
  StoredComment,
  TopicRequest,
  TopicRequestStatus,
} from '../types.ts';

/**
 * The columns each read selects, and how a row becomes the store's object.
 * A record's columns are its schema's fields (shapes.ts), in their order,
 * named in snake_case (tests/store/columns.test.ts checks them against the
 * tables). Dates go out as ISO 8601 with milliseconds, as they came in.
 */

/** A field's column: `createdAt` is `created_at`. */
export function columnName(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The columns of a record, in the order of its schema's fields. */
function columnsOf(schema: z.ZodObject): string {
  return Object.keys(schema.shape).map(columnName).join(', ');
}

/** The values of a record's insert, in the order of its columns (columnsOf). */
function valuesOf(schema: z.ZodObject): (item: object) => unknown[] {
  const fields = Object.keys(schema.shape);
  return (item) => fields.map((field) => (item as Record<string, unknown>)[field]);
}

function iso(date: Date): string {
  return date.toISOString();
}

function isoOrNull(date: Date | null): string | null {
  return date === null ? null : iso(date);
}

export const COMMENT_COLUMNS = columnsOf(comment);

export interface CommentRow {
  id: string;
  article_slug: string;
  parent_id: string | null;
  depth: number;
  author: string;
  author_hash: string;
  body: string;
  created_at: Date;
  score: number;
  deleted_at: Date | null;
  status: CommentStatus;
  remote: StoredComment['remote'];
  imported: StoredComment['imported'];
}

export function commentOf(row: CommentRow): StoredComment {
  return {
    id: row.id,
    articleSlug: row.article_slug,
    parentId: row.parent_id,
    depth: row.depth,
    author: row.author,
    authorHash: row.author_hash,
    body: row.body,
    createdAt: iso(row.created_at),
    score: row.score,
    deletedAt: isoOrNull(row.deleted_at),
    status: row.status,
    remote: row.remote,
    imported: row.imported,
  };
}

export const TOPIC_REQUEST_COLUMNS = columnsOf(topicRequest);

export interface TopicRequestRow {
  id: string;
  request_title: string;
  details: string | null;
  status: TopicRequestStatus;
  answer_url: string | null;
  author_hash: string;
  created_at: Date;
}

export function topicRequestOf(row: TopicRequestRow): TopicRequest {
  return {
    id: row.id,
    requestTitle: row.request_title,
    details: row.details,
    status: row.status,
    answerUrl: row.answer_url,
    authorHash: row.author_hash,
    createdAt: iso(row.created_at),
  };
}

export const BUG_REPORT_COLUMNS = columnsOf(bugReport);

export interface BugReportRow {
  id: string;
  description: string;
  page_path: string | null;
  author_hash: string;
  created_at: Date;
  reviewed_at: Date | null;
}

export function bugReportOf(row: BugReportRow): BugReport {
  return {
    id: row.id,
    description: row.description,
    pagePath: row.page_path,
    authorHash: row.author_hash,
    createdAt: iso(row.created_at),
    reviewedAt: isoOrNull(row.reviewed_at),
  };
}

export const CITY_SUBMISSION_COLUMNS = columnsOf(citySubmission);

export interface CitySubmissionRow {
  id: string;
  city_id: string;
  city: string;
  country: string;
  country_name: string;
  region: string | null;
  lat: number;
  lon: number;
  currency: string;
  net_pay: number;
  rent: number;
  beer_price: number;
  author_hash: string;
  created_at: Date;
  reviewed_at: Date | null;
}

export function citySubmissionOf(row: CitySubmissionRow): CitySubmission {
  return {
    id: row.id,
    cityId: row.city_id,
    city: row.city,
    country: row.country,
    countryName: row.country_name,
    region: row.region,
    lat: row.lat,
    lon: row.lon,
    currency: row.currency,
    netPay: row.net_pay,
    rent: row.rent,
    beerPrice: row.beer_price,
    authorHash: row.author_hash,
    createdAt: iso(row.created_at),
    reviewedAt: isoOrNull(row.reviewed_at),
  };
}

/** The values of an insert, in the order of the columns above. */
export const commentValues = valuesOf(comment);
export const topicRequestValues = valuesOf(topicRequest);
export const bugReportValues = valuesOf(bugReport);
export const citySubmissionValues = valuesOf(citySubmission);

/** The outbox's columns (notification_outbox), read back as outboxEntryOf takes them. */
export const OUTBOX_COLUMNS = columnsOf(outboxEntry);

export interface OutboxRow {
  id: string;
  channel: NotificationChannel;
  notification: OutboxEntry['notification'];
  created_at: Date;
  attempts: number;
  due_at: Date;
}

export function outboxEntryOf(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    channel: row.channel,
    notification: row.notification,
    createdAt: row.created_at.toISOString(),
    attempts: row.attempts,
    dueAt: row.due_at.toISOString(),
  };
}
