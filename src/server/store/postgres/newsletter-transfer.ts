/** Export and import of appearances, subscribers and newsletter issues on PostgreSQL (transfer.ts runs them). */
import type { PoolClient } from 'pg';
import type { ExportRecord } from '../types.ts';
import {
  APPEARANCE_COLUMNS,
  appearanceColumns,
  appearanceOf,
  INSERT_APPEARANCES,
  INSERT_ISSUES,
  ISSUE_COLUMNS,
  issueColumns,
  issueOf,
  SUBSCRIBER_COLUMNS,
  subscriberOf,
  subscriberValues,
  type AppearanceRow,
  type IssueRow,
  type SubscriberRow,
} from './newsletter-rows.ts';
import { valuesList } from './sql.ts';

/** What is exported, in import order: appearances, subscribers, then their issues (leases are their senders'). */
export const NEWSLETTER_SOURCES: { query: string; record: (row: never) => ExportRecord }[] = [
  {
    query: `SELECT ${APPEARANCE_COLUMNS} FROM appearances ORDER BY appeared_at, slug, lang`,
    record: (row: AppearanceRow) => ({ kind: 'appearance', item: appearanceOf(row) }),
  },
  {
    query: `SELECT ${SUBSCRIBER_COLUMNS} FROM subscribers ORDER BY created_at, id`,
    record: (row: SubscriberRow) => ({ kind: 'subscriber', item: subscriberOf(row) }),
  },
  {
    query: `SELECT ${ISSUE_COLUMNS} FROM newsletter_issues ORDER BY created_at, slug, lang, subscriber_id`,
    record: (row: IssueRow) => ({ kind: 'newsletterIssue', item: issueOf(row) }),
  },
];

/** Adds a batch of one kind of these records, those there already skipped (a subscriber by id or address); resolves with how many were added. */
export async function insertNewsletterRecords(client: PoolClient, records: readonly ExportRecord[]): Promise<number> {
  const appearances = records.flatMap((record) => (record.kind === 'appearance' ? [record.item] : []));
  const subscribers = records.flatMap((record) => (record.kind === 'subscriber' ? [record.item] : []));
  const issues = records.flatMap((record) => (record.kind === 'newsletterIssue' ? [record.item] : []));
  let added = 0;
  if (appearances.length > 0) added += (await client.query(INSERT_APPEARANCES, appearanceColumns(appearances))).rowCount ?? 0;
  if (subscribers.length > 0) {
    const { text, params } = valuesList(subscribers.map(subscriberValues));
    added +=
      (await client.query(`INSERT INTO subscribers (${SUBSCRIBER_COLUMNS}) VALUES ${text} ON CONFLICT DO NOTHING`, params)).rowCount ?? 0;
  }
  if (issues.length > 0) added += (await client.query(INSERT_ISSUES, issueColumns(issues))).rowCount ?? 0;
  return added;
}
