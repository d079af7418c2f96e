import { now } from '../clock.ts';
import { newComment } from '../records.ts';
import type { ThreadStore, Votes } from '../roles.ts';
import {
  threadTopic,
  type CastVote,
  type NewComment,
  type NewReaction,
  type ReactionCounts,
  type RevisionTopic,
  type StoredComment,
  type VoteTarget,
  type VoteValue,
} from '../types.ts';
import { Batcher, BATCHES, sqlState } from './batcher.ts';
import type { PostgresCore } from './engine.ts';
import { COMMENT_ROWS, insertStatement } from './inserts.ts';
import { COMMENT_COLUMNS, commentOf, type CommentRow } from './rows.ts';
import { bumpRevision } from './sql.ts';
import { applyVotesLocked, applyVotesOptimistically, VOTE_CHANGED_MEANWHILE, type VoteCall, type VoteOutcome } from './vote-batch.ts';

/** The threads on PostgreSQL: new comments, votes and the readers' newest comments go in batches (batcher.ts). */
export class PostgresThreads implements ThreadStore {
  readonly #core: PostgresCore;
  // Each write on the site's hot paths goes in a batch with the others of its kind that come in meanwhile.
  readonly #comments = new Batcher<StoredComment, StoredComment>((comments) => this.#insertComments(comments), {
    ...BATCHES,
    name: 'comments',
  });
  readonly #votes = new Batcher<VoteCall, VoteOutcome>((calls) => this.#applyVotes(calls), { ...BATCHES, name: 'votes' });
  readonly #latestComments = new Batcher<string, StoredComment | null>((hashes) => this.#latestCommentsBy(hashes), {
    ...BATCHES,
    name: 'latest comments',
  });

  constructor(core: PostgresCore) {
    this.#core = core;
    core.drainOnClose(this.#comments, this.#votes);
  }

  async insertComment(comment: NewComment): Promise<StoredComment> {
    return this.#comments.submit(newComment(comment));
  }

  async getComment(articleSlug: string, id: string): Promise<StoredComment | null> {
    const { rows } = await this.#core.query<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = $1 AND article_slug = $2`, [
      id,
      articleSlug,
    ]);
    return rows[0] ? commentOf(rows[0]) : null;
  }

  async remoteComment(id: string): Promise<StoredComment | null> {
    const { rows } = await this.#core.query<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = $1 AND remote IS NOT NULL`, [
      id,
    ]);
    return rows[0] ? commentOf(rows[0]) : null;
  }

  editRemoteComment(id: string, body: string): Promise<StoredComment | null> {
    return this.#core.transaction(async (client) => {
      const { rows } = await client.query<CommentRow>(
        `UPDATE comments SET body = CASE WHEN deleted_at IS NULL THEN $2 ELSE body END WHERE id = $1 AND remote IS NOT NULL
         RETURNING ${COMMENT_COLUMNS}`,
        [id, body],
      );
      const edited = rows[0];
      if (!edited) return null;
      await bumpRevision(client, threadTopic(edited.article_slug));
      return commentOf(edited);
    });
  }

  async listComments(articleSlug: string): Promise<StoredComment[]> {
    const { rows } = await this.#core.query<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM comments WHERE article_slug = $1 AND status = 'published' ORDER BY position`,
      [articleSlug],
    );
    return rows.map(commentOf);
  }

  async latestComments(articleSlugs: readonly string[], limit: number): Promise<StoredComment[]> {
    // Walks comments_newest from the newest, so a feed reads its few rows whatever the store holds.
    const { rows } = await this.#core.query<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM comments
       WHERE article_slug = ANY($1) AND status = 'published' AND deleted_at IS NULL
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [articleSlugs, limit],
    );
    return rows.map(commentOf);
  }

  async everPublished(readerHash: string): Promise<boolean> {
    const { rows } = await this.#core.query<{ published: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM comments WHERE author_hash = $1 AND status = 'published') AS published",
      [readerHash],
    );
    return rows[0]?.published ?? false;
  }

  latestCommentBy(authorHash: string): Promise<StoredComment | null> {
    return this.#latestComments.submit(authorHash);
  }

  async articleScore(articleSlug: string): Promise<number> {
    const { rows } = await this.#core.query<{ score: number }>('SELECT score FROM article_scores WHERE article_slug = $1', [articleSlug]);
    return rows[0]?.score ?? 0;
  }

  async setReaction({ articleSlug, kind, actorId }: NewReaction, on: boolean): Promise<boolean> {
    // One statement: the reaction and its thread's revision commit together, the revision only when it changed.
    const changed = on
      ? `INSERT INTO reactions (article_slug, kind, actor_id, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING article_slug`
      : 'DELETE FROM reactions WHERE article_slug = $1 AND kind = $2 AND actor_id = $3 RETURNING article_slug';
    const { rows } = await this.#core.query<{ changed: boolean }>(
      `WITH changed AS (${changed}), bumped AS (
         INSERT INTO revisions (topic, revision) SELECT 'thread:' || article_slug, 1 FROM changed
         ON CONFLICT (topic) DO UPDATE SET revision = revisions.revision + 1
       )
       SELECT EXISTS (SELECT 1 FROM changed) AS changed`,
      on ? [articleSlug, kind, actorId, now()] : [articleSlug, kind, actorId],
    );
    return rows[0]?.changed === true;
  }

  async reactionCounts(articleSlug: string): Promise<ReactionCounts> {
    const { rows } = await this.#core.query<ReactionCounts>(
      `SELECT count(*) FILTER (WHERE kind = 'like')::integer AS likes, count(*) FILTER (WHERE kind = 'boost')::integer AS boosts
       FROM reactions WHERE article_slug = $1`,
      [articleSlug],
    );
    return rows[0] ?? { likes: 0, boosts: 0 };
  }

  applyVote(target: VoteTarget, voter: string, decide: (current: VoteValue) => VoteValue): Promise<VoteOutcome> {
    return this.#votes.submit({ target, voter, decide });
  }

  async votesOf(articleSlug: string, voter: string): Promise<Votes> {
    const { rows } = await this.#core.query<{ comment_id: string | null; vote: CastVote }>(
      `SELECT NULL AS comment_id, vote FROM article_votes WHERE article_slug = $1 AND voter = $2 AND vote <> 0
       UNION ALL
       SELECT comment_id, vote FROM comment_votes WHERE article_slug = $1 AND voter = $2 AND vote <> 0`,
      [articleSlug, voter],
    );
    const votes: Votes = { article: 0, comments: {} };
    for (const row of rows) {
      if (row.comment_id === null) votes.article = row.vote;
      else votes.comments[row.comment_id] = row.vote;
    }
    return votes;
  }

  async revision(topic: RevisionTopic): Promise<string> {
    // Each thread's counter only grows, so their sum changes whenever one does; a row of its own would make every write queue on it.
    const { rows } =
      topic === 'threads'
        ? await this.#core.query<{ revision: string }>(
            "SELECT coalesce(sum(revision), 0)::text AS revision FROM revisions WHERE topic LIKE 'thread:%'",
          )
        : await this.#core.query<{ revision: string }>('SELECT revision FROM revisions WHERE topic = $1', [topic]);
    return rows[0]?.revision ?? '0';
  }

  /** Comments of a batch, with their threads' revisions, in one statement: one round trip, one commit. */
  async #insertComments(comments: StoredComment[]): Promise<StoredComment[]> {
    const inserted = insertStatement(COMMENT_ROWS, comments);
    const { text, params } = this.#core.withOutbox(
      {
        text: `WITH inserted AS (${inserted.text} RETURNING article_slug)
       INSERT INTO revisions (topic, revision)
       SELECT 'thread:' || article_slug, count(*) FROM inserted GROUP BY article_slug ORDER BY 1
       ON CONFLICT (topic) DO UPDATE SET revision = revisions.revision + excluded.revision`,
        params: inserted.params,
      },
      comments.map((record) => ({ kind: 'comment', record })),
    );
    await this.#core.query(text, params);
    return comments;
  }

  /** Each reader's newest comment, in one query: an index read that stops at the first row of each. */
  async #latestCommentsBy(authorHashes: string[]): Promise<(StoredComment | null)[]> {
    const { rows } = await this.#core.query<CommentRow>(
      `SELECT newest.* FROM unnest($1::text[]) AS reader (hash)
       CROSS JOIN LATERAL (
         SELECT ${COMMENT_COLUMNS} FROM comments WHERE author_hash = reader.hash ORDER BY position DESC LIMIT 1
       ) AS newest`,
      [authorHashes],
    );
    const newest = new Map(rows.map((row) => [row.author_hash, commentOf(row)]));
    return authorHashes.map((hash) => newest.get(hash) ?? null);
  }

  /** A batch of votes, read without locks first; locked and applied again only when one changed meanwhile (vote-batch.ts). */
  async #applyVotes(calls: VoteCall[]): Promise<VoteOutcome[]> {
    try {
      return await this.#core.gate.run(() => applyVotesOptimistically(this.#core.pool, calls));
    } catch (error) {
      if (sqlState(error) !== VOTE_CHANGED_MEANWHILE) throw error;
      return this.#core.transaction((client) => applyVotesLocked(client, calls));
    }
  }
}
