import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { openPostgresStore } from '../../src/server/store/postgres/engine.ts';
import {
  BUG_REPORT_ROWS,
  CITY_SUBMISSION_ROWS,
  COMMENT_ROWS,
  OUTBOX_ROWS,
  TOPIC_REQUEST_ROWS,
} from '../../src/server/store/postgres/inserts.ts';
import { columnName } from '../../src/server/store/postgres/rows.ts';
import {
  appearance,
  newsletterIssue,
  delivery,
  mention,
  subscriber,
  ban,
  bugReport,
  follower,
  instanceBlock,
  reaction,
  citySubmission,
  comment,
  outboxEntry,
  spentLink,
  topicRequest,
  vote,
} from '../../src/server/store/shapes.ts';
import { dropDatabases, freshDatabase, queryRows } from '../support/postgres.ts';

/**
 * Each stored record is declared once, as its zod schema (src/server/store/shapes.ts);
 * the PostgreSQL tables, made by the site's own migrations, must agree with it:
 * a field for each column and a column for each field (`createdAt` is
 * `created_at`), of the same kind and nullability, but for the columns listed
 * below with their reason.
 */

/** Each table that keeps a record, and the record's schema. */
const RECORD_TABLES: Record<string, z.ZodObject> = {
  comments: comment,
  topic_requests: topicRequest,
  bug_reports: bugReport,
  city_submissions: citySubmission,
  notification_outbox: outboxEntry,
  bans: ban,
  spent_links: spentLink,
  followers: follower,
  blocked_instances: instanceBlock,
  reactions: reaction,
  appearances: appearance,
  subscribers: subscriber,
  newsletter_issues: newsletterIssue,
  deliveries: delivery,
  mentions: mention,
  // A vote on a comment names it; an article's own vote is the same record with no comment.
  comment_votes: vote.extend({ commentId: vote.shape.commentId.unwrap() }),
  article_votes: vote.omit({ commentId: true }),
};

/** Columns that are no field of their record, and why. */
const NOT_FIELDS: Record<string, Record<string, string>> = {
  comments: {
    position: 'the order comments were written in, which a thread lists them by',
    parent_depth: 'the parent’s depth, so that the foreign key checks a reply’s depth too',
  },
  topic_requests: { position: 'the order they were written in, which the review queue follows' },
  bug_reports: { position: 'the order they were written in, which the review queue follows' },
  city_submissions: { position: 'the order they were written in, which the review queue follows' },
  notification_outbox: { lease_until: 'a sender’s claim on the entry while it sends it, not part of what is sent' },
  newsletter_issues: { lease_until: 'a sender’s claim on the issue while it sends it, not part of what is sent' },
  deliveries: { lease_until: 'a sender’s claim on the delivery while it sends it, not part of what is sent' },
  mentions: { lease_until: 'a worker’s claim on the mention while it verifies or sends it, not part of what is kept' },
};

/** Tables that keep no record of their own, and why. */
const NOT_RECORDS: Record<string, string> = {
  settings: 'the kept salt and secrets, exported as the `salt` and `secret` lines of an export',
  article_scores: 'the sums of the articles’ votes, kept beside them',
  revisions: 'the counters of cached renders, bumped by the writes',
  email_sender: 'which instance sends the owner’s emails now, a lease of the senders’ own',
  newsletter_sender: 'which instance sends the newsletter now, a lease of the senders’ own',
  schema_migrations: 'the migrations applied (node-pg-migrate)',
};

interface Column {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
}

/** What a column holds, in the terms a field's JSON Schema uses. */
const COLUMN_KINDS: Record<string, string> = {
  text: 'string',
  'timestamp with time zone': 'date-time',
  smallint: 'integer',
  integer: 'integer',
  bigint: 'integer',
  'double precision': 'number',
  json: 'object',
  boolean: 'boolean',
  ARRAY: 'array',
};

type JsonSchema = { type?: string | string[]; format?: string; const?: unknown; anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };

/** The kinds a field's JSON Schema allows: `null`, `string`, `date-time`, `integer`, `number`, `object`. */
function kinds(schema: JsonSchema): Set<string> {
  const found = new Set<string>();
  for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) for (const kind of kinds(part)) found.add(kind);
  for (const type of [schema.type ?? []].flat()) {
    if (type === 'string' && schema.format === 'date-time') found.add('date-time');
    else if (type === 'number' && Number.isInteger(schema.const)) found.add('integer');
    else found.add(type);
  }
  return found;
}

/** A record's fields as columns: name, kind and whether it may be null. */
function fieldColumns(schema: z.ZodObject): Map<string, { kind: string; nullable: boolean }> {
  const properties = (z.toJSONSchema(schema, { io: 'input' }).properties ?? {}) as Record<string, JsonSchema>;
  return new Map(
    Object.entries(properties).map(([field, property]) => {
      const found = kinds(property);
      const nullable = found.delete('null');
      return [columnName(field), { kind: [...found].join('|'), nullable }];
    }),
  );
}

let databaseUrl = '';
let columns: Column[] = [];
before(async () => {
  databaseUrl = await freshDatabase('columns');
  await (await openPostgresStore(databaseUrl)).close();
  columns = await queryRows<Column>(
    databaseUrl,
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
});
after(dropDatabases);

function columnsOf(table: string): Column[] {
  return columns.filter((column) => column.table_name === table);
}

describe('the PostgreSQL tables and the records’ schemas', () => {
  test('every table keeps a record, or is listed with its reason', () => {
    const tables = new Set(columns.map((column) => column.table_name));
    assert.deepEqual([...tables].sort(), [...Object.keys(RECORD_TABLES), ...Object.keys(NOT_RECORDS)].sort());
  });

  for (const [table, schema] of Object.entries(RECORD_TABLES)) {
    test(`${table}: a column for each field, a field for each column, of the same kind and nullability`, () => {
      const exceptions = NOT_FIELDS[table] ?? {};
      const actual = columnsOf(table)
        .filter(({ column_name }) => !(column_name in exceptions))
        .map(({ column_name, data_type, is_nullable }) => [
          column_name,
          { kind: COLUMN_KINDS[data_type] ?? data_type, nullable: is_nullable === 'YES' },
        ]);
      assert.deepEqual(Object.fromEntries(actual), Object.fromEntries(fieldColumns(schema)));
      for (const column of Object.keys(exceptions))
        assert.ok(
          columnsOf(table).some(({ column_name }) => column_name === column),
          `${table}.${column}`,
        );
    });
  }

  test('each batch insert names existing columns, with their own types, in the order of its values', async () => {
    for (const target of [COMMENT_ROWS, TOPIC_REQUEST_ROWS, BUG_REPORT_ROWS, CITY_SUBMISSION_ROWS, OUTBOX_ROWS]) {
      const names = target.columns.split(', ');
      assert.equal(target.types.length, names.length, target.table);
      const types = await queryRows<{ type: string }>(databaseUrl, 'SELECT type::regtype::text AS type FROM unnest($1::text[]) AS type', [
        target.types,
      ]);
      const byName = new Map(columnsOf(target.table).map((column) => [column.column_name, column.data_type]));
      assert.deepEqual(
        names.map((name) => byName.get(name)),
        types.map(({ type }) => type),
        target.table,
      );
    }
  });
});
