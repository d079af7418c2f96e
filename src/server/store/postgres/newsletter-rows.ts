/** The rows of appearances, subscribers and newsletter issues, and the records read back from them. */
import type { LanguageCode } from '../../../i18n/languages.ts';
import type { Appearance, AppearanceChange, AppearanceConsumer, IssueKey, NewsletterIssue, Subscriber } from '../types.ts';
import { asColumns } from './sql.ts';

export const APPEARANCE_COLUMNS = 'slug, lang, appeared_at, baseline, waiting, version, change, digest, updated_at';
export const SUBSCRIBER_COLUMNS = 'id, email, lang, status, created_at, confirmed_at, confirmation_sent_at';
export const ISSUE_COLUMNS = 'slug, lang, subscriber_id, created_at, attempts, due_at, sent_at';

export interface AppearanceRow {
  slug: string;
  lang: LanguageCode;
  appeared_at: Date;
  baseline: boolean;
  waiting: AppearanceConsumer[];
  version: number;
  change: AppearanceChange;
  digest: string | null;
  updated_at: Date | null;
}

export function appearanceOf(row: AppearanceRow): Appearance {
  return {
    slug: row.slug,
    lang: row.lang,
    appearedAt: row.appeared_at.toISOString(),
    baseline: row.baseline,
    waiting: row.waiting,
    version: row.version,
    change: row.change,
    digest: row.digest,
    updatedAt: row.updated_at?.toISOString() ?? null,
  };
}

export interface SubscriberRow {
  id: string;
  email: string;
  lang: LanguageCode;
  status: Subscriber['status'];
  created_at: Date;
  confirmed_at: Date | null;
  confirmation_sent_at: Date;
}

export function subscriberOf(row: SubscriberRow): Subscriber {
  return {
    id: row.id,
    email: row.email,
    lang: row.lang,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    confirmedAt: row.confirmed_at?.toISOString() ?? null,
    confirmationSentAt: row.confirmation_sent_at.toISOString(),
  };
}

export interface IssueRow {
  slug: string;
  lang: LanguageCode;
  subscriber_id: string;
  created_at: Date;
  attempts: number;
  due_at: Date;
  sent_at: Date | null;
}

export function issueOf(row: IssueRow): NewsletterIssue {
  return {
    slug: row.slug,
    lang: row.lang,
    subscriberId: row.subscriber_id,
    createdAt: row.created_at.toISOString(),
    attempts: row.attempts,
    dueAt: row.due_at.toISOString(),
    sentAt: row.sent_at?.toISOString() ?? null,
  };
}

/** Appearances as one array a column, for `unnest`: `waiting` as JSON, since unnest flattens an array of arrays. */
export function appearanceColumns(items: readonly Appearance[]): unknown[][] {
  return asColumns(
    items.map((item) => [
      item.slug,
      item.lang,
      item.appearedAt,
      item.baseline,
      JSON.stringify(item.waiting),
      item.version,
      item.change,
      item.digest,
      item.updatedAt,
    ]),
    9,
  );
}

/** Appearances given (`$1`…`$9`: appearanceColumns) as rows to insert. */
const GIVEN_APPEARANCES = `INSERT INTO appearances (${APPEARANCE_COLUMNS})
  SELECT slug, lang, appeared_at, baseline, ARRAY(SELECT json_array_elements_text(waiting)), version, change, digest, updated_at
  FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::boolean[], $5::json[], $6::integer[], $7::text[], $8::text[],
    $9::timestamptz[]) AS given (slug, lang, appeared_at, baseline, waiting, version, change, digest, updated_at)`;

/** Inserts appearances (appearanceColumns) not recorded yet: an import. */
export const INSERT_APPEARANCES = `${GIVEN_APPEARANCES}
  ON CONFLICT (slug, lang) DO NOTHING`;

/** Writes appearances (appearanceColumns), each in the place of its translation's: a recording's new versions. */
export const WRITE_APPEARANCES = `${GIVEN_APPEARANCES}
  ON CONFLICT (slug, lang) DO UPDATE SET (appeared_at, baseline, waiting, version, change, digest, updated_at) =
    ROW(EXCLUDED.appeared_at, EXCLUDED.baseline, EXCLUDED.waiting, EXCLUDED.version, EXCLUDED.change, EXCLUDED.digest, EXCLUDED.updated_at)`;

export function subscriberValues(item: Subscriber): unknown[] {
  return [item.id, item.email, item.lang, item.status, item.createdAt, item.confirmedAt, item.confirmationSentAt];
}

export function issueColumns(items: readonly NewsletterIssue[]): unknown[][] {
  return asColumns(
    items.map((item) => [item.slug, item.lang, item.subscriberId, item.createdAt, item.attempts, item.dueAt, item.sentAt]),
    7,
  );
}

/** Inserts issues (`$1`…`$7`: issueColumns) not queued yet, of subscribers still there; resolves to those inserted. */
export const INSERT_ISSUES = `INSERT INTO newsletter_issues (${ISSUE_COLUMNS})
  SELECT given.* FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::integer[], $6::timestamptz[], $7::timestamptz[])
    AS given (slug, lang, subscriber_id, created_at, attempts, due_at, sent_at)
  WHERE given.sent_at IS NOT NULL OR EXISTS (SELECT 1 FROM subscribers WHERE subscribers.id = given.subscriber_id)
  ON CONFLICT (slug, lang, subscriber_id) DO NOTHING`;

/**
 * Queues the issues named (`$1`…`$3`: issueKeyParams) not queued yet, of
 * subscribers still there, due at once by the database's clock, the one
 * claimIssues compares with; resolves to those inserted.
 */
export const QUEUE_ISSUES = `INSERT INTO newsletter_issues (${ISSUE_COLUMNS})
  SELECT given.slug, given.lang, given.subscriber_id, now(), 0, now(), NULL
    FROM unnest($1::text[], $2::text[], $3::text[]) AS given (slug, lang, subscriber_id)
  WHERE EXISTS (SELECT 1 FROM subscribers WHERE subscribers.id = given.subscriber_id)
  ON CONFLICT (slug, lang, subscriber_id) DO NOTHING`;

/** The issues named (`$1`…`$3`), by their key. */
export const KEYED_ISSUES = '(slug, lang, subscriber_id) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))';

export function issueKeyParams(issues: readonly IssueKey[]): unknown[][] {
  return asColumns(
    issues.map(({ slug, lang, subscriberId }) => [slug, lang, subscriberId]),
    3,
  );
}
