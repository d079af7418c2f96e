import { now } from '../clock.ts';
import type { FollowerStore } from '../roles.ts';
import { hostAndParents } from '../records.ts';
import { follower as followerShape, instanceBlock } from '../shapes.ts';
import type { Follower, InstanceBlock, NewFollower } from '../types.ts';
import type { PostgresCore } from './engine.ts';

/** A row of `followers`. */
export interface FollowerRow {
  lang: Follower['lang'];
  actor_id: string;
  inbox: string;
  shared_inbox: string | null;
  followed_at: Date;
}

export const FOLLOWER_COLUMNS = 'lang, actor_id, inbox, shared_inbox, followed_at';

export function followerOf(row: FollowerRow): Follower {
  return {
    lang: row.lang,
    actorId: row.actor_id,
    inbox: row.inbox,
    sharedInbox: row.shared_inbox,
    followedAt: row.followed_at.toISOString(),
  };
}

/** The host name of an actor id, as SQL: what a block of an instance is matched against. */
const ACTOR_HOST = String.raw`lower(substring(actor_id from '^[a-zA-Z][a-zA-Z0-9+.-]*://(\[[^\]]*\]|[^/:?#]+)'))`;

export function instanceBlockOf(row: { host: string; blocked_at: Date }): InstanceBlock {
  return { host: row.host, blockedAt: row.blocked_at.toISOString() };
}

/** The followers of the federation's actors on PostgreSQL, one row a language and remote actor, and the blocked instances. */
export class PostgresFollowers implements FollowerStore {
  readonly #core: PostgresCore;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  async addFollower(follower: NewFollower): Promise<boolean> {
    const stored = followerShape.parse({ ...follower, followedAt: now() });
    // xmax is 0 on a row this statement inserted, and not on one it updated.
    const { rows } = await this.#core.query<{ inserted: boolean }>(
      `INSERT INTO followers (${FOLLOWER_COLUMNS}) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (lang, actor_id) DO UPDATE SET inbox = excluded.inbox, shared_inbox = excluded.shared_inbox
       RETURNING xmax = 0 AS inserted`,
      [stored.lang, stored.actorId, stored.inbox, stored.sharedInbox, stored.followedAt],
    );
    return rows[0]?.inserted === true;
  }

  async removeFollower(lang: Follower['lang'], actorId: string): Promise<boolean> {
    const result = await this.#core.query('DELETE FROM followers WHERE lang = $1 AND actor_id = $2', [lang, actorId]);
    return (result.rowCount ?? 0) > 0;
  }

  async listFollowers(lang: Follower['lang'], offset: number, limit: number): Promise<Follower[]> {
    const { rows } = await this.#core.query<FollowerRow>(
      `SELECT ${FOLLOWER_COLUMNS} FROM followers WHERE lang = $1 ORDER BY followed_at, actor_id OFFSET $2 LIMIT $3`,
      [lang, offset, limit],
    );
    return rows.map(followerOf);
  }

  async followerCount(lang: Follower['lang']): Promise<number> {
    const { rows } = await this.#core.query<{ count: number }>('SELECT count(*)::integer AS count FROM followers WHERE lang = $1', [lang]);
    return rows[0]?.count ?? 0;
  }

  async blockInstance(host: string): Promise<boolean> {
    const block = instanceBlock.parse({ host, blockedAt: now() });
    // One statement: the block and the removal of its followers commit together.
    const { rows } = await this.#core.query<{ added: boolean }>(
      `WITH added AS (
         INSERT INTO blocked_instances (host, blocked_at) VALUES ($1, $2) ON CONFLICT (host) DO NOTHING RETURNING host
       ), removed AS (
         DELETE FROM followers WHERE ${ACTOR_HOST} = $1 OR right(${ACTOR_HOST}, length($1) + 1) = '.' || $1
       )
       SELECT EXISTS (SELECT 1 FROM added) AS added`,
      [block.host, block.blockedAt],
    );
    return rows[0]?.added === true;
  }

  async unblockInstance(host: string): Promise<boolean> {
    const result = await this.#core.query('DELETE FROM blocked_instances WHERE host = $1', [host]);
    return (result.rowCount ?? 0) > 0;
  }

  async blockedInstances(): Promise<InstanceBlock[]> {
    const { rows } = await this.#core.query<{ host: string; blocked_at: Date }>(
      'SELECT host, blocked_at FROM blocked_instances ORDER BY host',
    );
    return rows.map(instanceBlockOf);
  }

  async isInstanceBlocked(host: string): Promise<boolean> {
    const { rows } = await this.#core.query<{ blocked: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM blocked_instances WHERE host = ANY($1)) AS blocked',
      [hostAndParents(host)],
    );
    return rows[0]?.blocked === true;
  }
}
