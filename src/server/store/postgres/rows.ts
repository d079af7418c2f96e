import type { BugReport, CitySubmission, CommentStatus, StoredComment, TopicRequest, TopicRequestStatus } from '../types.ts';

/**
 * The columns each read selects and how a row becomes the store's object.
 * Dates go out as ISO 8601 with milliseconds, as they came in.
 */

function iso(date: Date): string {
  return date.toISOString();
}

function isoOrNull(date: Date | null): string | null {
  return date === null ? null : iso(date);
}

export const COMMENT_COLUMNS = 'id, article_slug, parent_id, depth, author, author_hash, body, created_at, score, deleted_at, status';

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
  };
}

export const TOPIC_REQUEST_COLUMNS = 'id, request_title, details, status, answer_url, author_hash, created_at';

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

export const BUG_REPORT_COLUMNS = 'id, description, page_path, author_hash, created_at, reviewed_at';

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

export const CITY_SUBMISSION_COLUMNS =
  'id, city_id, city, country, country_name, region, lat, lon, currency, net_pay, rent, beer_price, author_hash, created_at, reviewed_at';

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
export function commentValues(comment: StoredComment): unknown[] {
  return [
    comment.id,
    comment.articleSlug,
    comment.parentId,
    comment.depth,
    comment.author,
    comment.authorHash,
    comment.body,
    comment.createdAt,
    comment.score,
    comment.deletedAt,
    comment.status,
  ];
}

export function topicRequestValues(item: TopicRequest): unknown[] {
  return [item.id, item.requestTitle, item.details, item.status, item.answerUrl, item.authorHash, item.createdAt];
}

export function bugReportValues(item: BugReport): unknown[] {
  return [item.id, item.description, item.pagePath, item.authorHash, item.createdAt, item.reviewedAt];
}

export function citySubmissionValues(item: CitySubmission): unknown[] {
  return [
    item.id,
    item.cityId,
    item.city,
    item.country,
    item.countryName,
    item.region,
    item.lat,
    item.lon,
    item.currency,
    item.netPay,
    item.rent,
    item.beerPrice,
    item.authorHash,
    item.createdAt,
    item.reviewedAt,
  ];
}
