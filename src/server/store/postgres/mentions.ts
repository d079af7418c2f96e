/** Webmentions on PostgreSQL: migrations/1797206400000_mentions.sql. */
import { firstVerification } from '../outbox.ts';
import type { MentionStore } from '../roles.ts';
import { mention as mentionShape } from '../shapes.ts';
import type { Mention, MentionKey } from '../types.ts';
import type { PostgresCore } from './engine.ts';
import { asColumns, bumpRevision } from './sql.ts';

export const MENTION_COLUMNS =
  'source, target, direction, article_slug, lang, status, kind, author_name, author_url, content, received_at, settled_at, attempts, due_at';

export interface MentionRow {
  source: string;
  target: string;
  direction: Mention['direction'];
  article_slug: string;
  lang: Mention['lang'];
  status: Mention['status'];
  kind: Mention['kind'];
  author_name: string | null;
  author_url: string | null;
  content: string | null;
  received_at: Date;
  settled_at: Date | null;
  attempts: number;
  due_at: Date | null;
}

export function mentionOf(row: MentionRow): Mention {
  return {
    source: row.source,
    target: row.target,
    direction: row.direction,
    articleSlug: row.article_slug,
    lang: row.lang,
    status: row.status,
    kind: row.kind,
    authorName: row.author_name,
    authorUrl: row.author_url,
    content: row.content,
    receivedAt: row.received_at.toISOString(),
    settledAt: row.settled_at?.toISOString() ?? null,
    attempts: row.attempts,
    dueAt: row.due_at?.toISOString() ?? null,
  };
}

/** Inserts mentions (`$1`…`$14`, a column each: mentionColumns) not kept yet; those there stay as they are. */
export const INSERT_MENTIONS = `INSERT INTO mentions (${MENTION_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
    $9::text[], $10::text[], $11::timestamptz[], $12::timestamptz[], $13::integer[], $14::timestamptz[])
  ON CONFLICT (source, target) DO NOTHING`;

export function mentionColumns(items: readonly Mention[]): unknown[][] {
  return asColumns(
    items.map((item) => [
      item.source,
      item.target,
      item.direction,
      item.articleSlug,
      item.lang,
      item.status,
      item.kind,
      item.authorName,
      item.authorUrl,
      item.content,
      item.receivedAt,
      item.settledAt,
      item.attempts,
      item.dueAt,
    ]),
    14,
  );
}

const KEYED = 'source = $1 AND target = $2';

/** A change to a received mention moves its thread's revision, in the same transaction. */
export class PostgresMentions implements MentionStore {
  readonly #core: PostgresCore;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  addMention(mention: Mention): Promise<boolean> {
    const item = mentionShape.parse(mention);
    return this.#core.transaction(async (client) => {
      const added = ((await client.query(INSERT_MENTIONS, mentionColumns([item]))).rowCount ?? 0) > 0;
      if (added && item.direction === 'received') await bumpRevision(client, `thread:${item.articleSlug}`);
      return added;
    });
  }

  /** The kept row is locked first, so that its status before is known: a first verification's outbox rows go in the same update. */
  replaceMention(mention: Mention): Promise<boolean> {
    const item = mentionShape.parse(mention);
    const [, , ...rest] = mentionColumns([item]).map((column) => column[0]);
    return this.#core.transaction(async (client) => {
      const { rows } = await client.query<Pick<Mention, 'status'>>(`SELECT status FROM mentions WHERE ${KEYED} FOR UPDATE`, [
        item.source,
        item.target,
      ]);
      const kept = rows[0];
      if (!kept) return false;
      const notified = firstVerification(kept, item);
      const { text, params } = this.#core.withOutbox(
        {
          text: `UPDATE mentions SET (${MENTION_COLUMNS}, lease_until) = ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL)
         WHERE ${KEYED}`,
          params: [item.source, item.target, ...rest],
        },
        notified ? [notified] : [],
      );
      await client.query(text, params);
      if (item.direction === 'received') await bumpRevision(client, `thread:${item.articleSlug}`);
      return true;
    });
  }

  removeMention({ source, target }: MentionKey): Promise<boolean> {
    return this.#core.transaction(async (client) => {
      const { rows } = await client.query<{ article_slug: string; direction: string }>(
        `DELETE FROM mentions WHERE ${KEYED} RETURNING article_slug, direction`,
        [source, target],
      );
      const removed = rows[0];
      if (removed?.direction === 'received') await bumpRevision(client, `thread:${removed.article_slug}`);
      return removed !== undefined;
    });
  }

  async findMention({ source, target }: MentionKey): Promise<Mention | null> {
    const { rows } = await this.#core.query<MentionRow>(`SELECT ${MENTION_COLUMNS} FROM mentions WHERE ${KEYED}`, [source, target]);
    return rows[0] ? mentionOf(rows[0]) : null;
  }

  async mentionsOf(articleSlug: string): Promise<Mention[]> {
    const { rows } = await this.#core.query<MentionRow>(
      `SELECT ${MENTION_COLUMNS} FROM mentions WHERE article_slug = $1 AND direction = 'received' ORDER BY received_at, source`,
      [articleSlug],
    );
    return rows.map(mentionOf);
  }

  async listMentions(): Promise<Mention[]> {
    const { rows } = await this.#core.query<MentionRow>(`SELECT ${MENTION_COLUMNS} FROM mentions ORDER BY received_at, source, target`);
    return rows.map(mentionOf);
  }

  /** FOR UPDATE SKIP LOCKED and a lease, as the deliveries claim (deliveries.ts). */
  async claimMentions(limit: number, leaseMs: number): Promise<Mention[]> {
    const { rows } = await this.#core.query<MentionRow>(
      `UPDATE mentions SET lease_until = now() + $2 * interval '1 millisecond'
       WHERE (source, target) IN (
         SELECT source, target FROM mentions
         WHERE due_at IS NOT NULL AND due_at <= now() AND (lease_until IS NULL OR lease_until <= now())
         ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING ${MENTION_COLUMNS}`,
      [limit, leaseMs],
    );
    return rows.map(mentionOf).sort((a, b) => (a.dueAt ?? '').localeCompare(b.dueAt ?? ''));
  }
}
