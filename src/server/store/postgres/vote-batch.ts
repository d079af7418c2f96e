/**
 * Votes applied in batches (src/server/store/postgres/batcher.ts), each call
 * in order as if it were alone: a voter's second call on a target sees the
 * first one's vote, and each call answers the score just after it.
 *
 * A batch first reads the votes it changes without locking them, decides,
 * and writes in one statement that commits alone: each vote row is set only
 * if it still holds what was read (a compare-and-set), and the statement
 * fails whole, as a serialization failure, when one did not. Then, and only
 * then, the batch is applied again in a transaction that locks the rows
 * before it reads them. So a batch costs two round trips and one commit,
 * and a reader voting twice at once through two instances still counts once.
 */
import type { PoolClient } from 'pg';
import type { VoteTarget, VoteValue } from '../types.ts';
import { asColumns, run, type Queryable } from './sql.ts';

/** One voter's vote on one target, decided from the vote they have now. */
export interface VoteCall {
  target: VoteTarget;
  voter: string;
  decide: (current: VoteValue) => VoteValue;
}

/** The target's score after the call and the voter's vote now; null when the comment is gone. */
export type VoteOutcome = { score: number; vote: VoteValue } | null;

/** A voter's vote as read: whether its row exists (a removed vote keeps its row, at 0). */
interface StoredVote {
  vote: VoteValue;
  stored: boolean;
}

interface VoteRow {
  article_slug: string;
  comment_id: string | null;
  voter: string;
  vote: VoteValue | null;
}

const SEPARATOR = '\u0000';

function targetKey({ articleSlug, commentId }: VoteTarget): string {
  return `${articleSlug}${SEPARATOR}${commentId ?? ''}`;
}

function voteKey(target: VoteTarget, voter: string): string {
  return `${targetKey(target)}${SEPARATOR}${voter}`;
}

/** The votes of every voter and target, not locked; a vote not stored reads null, a comment gone or deleted has no row. */
const READ_VOTES = `
  SELECT v.slug AS article_slug, NULL::text AS comment_id, v.voter, a.vote
  FROM unnest($1::text[], $2::text[]) AS v(slug, voter)
  LEFT JOIN article_votes a ON a.article_slug = v.slug AND a.voter = v.voter
  UNION ALL
  SELECT v.slug, v.comment_id, v.voter, c.vote
  FROM unnest($3::text[], $4::text[], $5::text[]) AS v(slug, voter, comment_id)
  LEFT JOIN comment_votes c ON c.article_slug = v.slug AND c.comment_id = v.comment_id AND c.voter = v.voter
  WHERE EXISTS (SELECT 1 FROM comments WHERE id = v.comment_id AND article_slug = v.slug AND deleted_at IS NULL AND status = 'published')`;

/** The same votes, each row created (at 0) if need be and locked, in one order for every transaction. */
const LOCK_VOTES = `
  WITH article_rows AS (
    INSERT INTO article_votes (article_slug, voter, vote)
    SELECT slug, voter, 0 FROM unnest($1::text[], $2::text[]) AS v(slug, voter) ORDER BY slug, voter
    ON CONFLICT (article_slug, voter) DO UPDATE SET vote = article_votes.vote
    RETURNING article_slug, NULL::text AS comment_id, voter, vote
  ), comment_rows AS (
    INSERT INTO comment_votes (article_slug, voter, comment_id, vote)
    SELECT v.slug, v.voter, v.comment_id, 0 FROM unnest($3::text[], $4::text[], $5::text[]) AS v(slug, voter, comment_id)
    WHERE EXISTS (SELECT 1 FROM comments c WHERE c.id = v.comment_id AND c.article_slug = v.slug AND c.deleted_at IS NULL AND c.status = 'published')
    ORDER BY v.slug, v.comment_id, v.voter
    ON CONFLICT (article_slug, voter, comment_id) DO UPDATE SET vote = comment_votes.vote
    RETURNING article_slug, comment_id, voter, vote
  )
  SELECT * FROM article_rows UNION ALL SELECT * FROM comment_rows`;

/**
 * Sets each changed vote if it still holds what was read and adds the votes
 * not stored yet; fails whole (vote_changed_meanwhile, a serialization
 * failure) unless every one of them was written. Then moves each target's
 * score by the sum of its changes and bumps the revision of each thread that
 * changed, the scores and revisions last and in one order, so that two
 * batches never wait on each other in a circle. Answers every target's score
 * after.
 */
const APPLY_VOTES = `
  WITH set_article_votes AS (
    UPDATE article_votes a SET vote = v.vote
    FROM unnest($1::text[], $2::text[], $3::smallint[], $4::smallint[]) AS v(slug, voter, expected, vote)
    WHERE a.article_slug = v.slug AND a.voter = v.voter AND a.vote = v.expected
    RETURNING 1
  ), added_article_votes AS (
    INSERT INTO article_votes (article_slug, voter, vote)
    SELECT * FROM unnest($5::text[], $6::text[], $7::smallint[]) ORDER BY 1, 2
    ON CONFLICT DO NOTHING
    RETURNING 1
  ), set_comment_votes AS (
    UPDATE comment_votes c SET vote = v.vote
    FROM unnest($8::text[], $9::text[], $10::text[], $11::smallint[], $12::smallint[]) AS v(slug, comment_id, voter, expected, vote)
    WHERE c.article_slug = v.slug AND c.comment_id = v.comment_id AND c.voter = v.voter AND c.vote = v.expected
    RETURNING 1
  ), added_comment_votes AS (
    INSERT INTO comment_votes (article_slug, comment_id, voter, vote)
    SELECT * FROM unnest($13::text[], $14::text[], $15::text[], $16::smallint[]) ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING
    RETURNING 1
  ), all_written AS (
    SELECT CASE
      WHEN (SELECT count(*) FROM set_article_votes) + (SELECT count(*) FROM added_article_votes)
         + (SELECT count(*) FROM set_comment_votes) + (SELECT count(*) FROM added_comment_votes) = $17
      THEN true ELSE vote_changed_meanwhile() END AS yes
  ), article_scores_after AS (
    INSERT INTO article_scores (article_slug, score)
    SELECT slug, change FROM unnest($18::text[], $19::integer[]) AS s(slug, change) ORDER BY slug
    ON CONFLICT (article_slug) DO UPDATE SET score = article_scores.score + excluded.score
    RETURNING article_slug, NULL::text AS comment_id, score
  ), comment_scores_after AS (
    UPDATE comments c SET score = c.score + s.change
    FROM (SELECT * FROM unnest($20::text[], $21::integer[]) AS s(comment_id, change) ORDER BY comment_id) AS s
    WHERE c.id = s.comment_id
    RETURNING c.article_slug, c.id AS comment_id, c.score
  ), bumped AS (
    INSERT INTO revisions (topic, revision)
    SELECT 'thread:' || slug, 1 FROM unnest($22::text[]) AS t(slug) ORDER BY 1
    ON CONFLICT (topic) DO UPDATE SET revision = revisions.revision + 1
  )
  SELECT scores.* FROM (SELECT * FROM article_scores_after UNION ALL SELECT * FROM comment_scores_after) AS scores, all_written
  WHERE all_written.yes`;

/** The SQLSTATE of a serialization failure, which APPLY_VOTES raises when a vote changed after it was read. */
export const VOTE_CHANGED_MEANWHILE = '40001';

/** The distinct voter-and-target pairs of a batch, each with one of its calls. */
function distinctVotes(calls: readonly VoteCall[]): Map<string, VoteCall> {
  const distinct = new Map<string, VoteCall>();
  for (const call of calls) distinct.set(voteKey(call.target, call.voter), call);
  return distinct;
}

/** The parameters of READ_VOTES and LOCK_VOTES: the article votes, then the comment votes. */
function voteParameters(distinct: Map<string, VoteCall>): unknown[] {
  const calls = [...distinct.values()];
  const onArticles = calls.filter((call) => call.target.commentId === null);
  const onComments = calls.filter((call) => call.target.commentId !== null);
  return [
    onArticles.map((call) => call.target.articleSlug),
    onArticles.map((call) => call.voter),
    onComments.map((call) => call.target.articleSlug),
    onComments.map((call) => call.voter),
    onComments.map((call) => call.target.commentId),
  ];
}

function storedVotes(rows: readonly VoteRow[]): Map<string, StoredVote> {
  return new Map(
    rows.map((row) => [
      voteKey({ articleSlug: row.article_slug, commentId: row.comment_id }, row.voter),
      { vote: row.vote ?? 0, stored: row.vote !== null },
    ]),
  );
}

/**
 * Decides every call on the votes read, writes the batch with APPLY_VOTES
 * and answers each call's outcome. Rejects with VOTE_CHANGED_MEANWHILE when a
 * vote read was changed before the write.
 */
async function decideAndApply(
  db: Queryable,
  calls: readonly VoteCall[],
  distinct: Map<string, VoteCall>,
  before: Map<string, StoredVote>,
): Promise<VoteOutcome[]> {
  const now = new Map([...before].map(([key, stored]) => [key, stored.vote]));
  const steps = calls.map((call) => {
    const key = voteKey(call.target, call.voter);
    const current = now.get(key);
    if (current === undefined) return null;
    const vote = call.decide(current);
    now.set(key, vote);
    return { vote, change: vote - current };
  });
  if (steps.every((step) => step === null)) return steps;

  const changes = new Map<string, { target: VoteTarget; change: number }>();
  const changedThreads = new Set<string>();
  calls.forEach((call, index) => {
    const step = steps[index];
    if (!step) return;
    const key = targetKey(call.target);
    const total = changes.get(key) ?? { target: call.target, change: 0 };
    total.change += step.change;
    changes.set(key, total);
    if (step.change !== 0) changedThreads.add(call.target.articleSlug);
  });
  const written = [...distinct]
    .map(([key, call]) => ({ call, was: before.get(key), vote: now.get(key) ?? 0 }))
    .filter(({ was, vote }) => was !== undefined && was.vote !== vote);
  const set = written.filter(({ was }) => was?.stored);
  const added = written.filter(({ was }) => !was?.stored);
  const onArticle = ({ call }: { call: VoteCall }) => call.target.commentId === null;
  const onComment = ({ call }: { call: VoteCall }) => call.target.commentId !== null;
  const targets = [...changes.values()];

  const { rows: scores } = await run<{ article_slug: string; comment_id: string | null; score: number }>(db, APPLY_VOTES, [
    ...asColumns(
      set.filter(onArticle).map(({ call, was, vote }) => [call.target.articleSlug, call.voter, was?.vote, vote]),
      4,
    ),
    ...asColumns(
      added.filter(onArticle).map(({ call, vote }) => [call.target.articleSlug, call.voter, vote]),
      3,
    ),
    ...asColumns(
      set.filter(onComment).map(({ call, was, vote }) => [call.target.articleSlug, call.target.commentId, call.voter, was?.vote, vote]),
      5,
    ),
    ...asColumns(
      added.filter(onComment).map(({ call, vote }) => [call.target.articleSlug, call.target.commentId, call.voter, vote]),
      4,
    ),
    written.length,
    ...asColumns(
      targets.filter(({ target }) => target.commentId === null).map(({ target, change }) => [target.articleSlug, change]),
      2,
    ),
    ...asColumns(
      targets.filter(({ target }) => target.commentId !== null).map(({ target, change }) => [target.commentId, change]),
      2,
    ),
    [...changedThreads],
  ]);

  // Each call's score: the score after the batch, less the changes of the calls after it.
  const running = new Map(scores.map((row) => [targetKey({ articleSlug: row.article_slug, commentId: row.comment_id }), row.score]));
  const outcomes: VoteOutcome[] = calls.map(() => null);
  for (let index = calls.length - 1; index >= 0; index -= 1) {
    const step = steps[index];
    const call = calls[index];
    if (!step || !call) continue;
    const key = targetKey(call.target);
    const score = running.get(key) ?? 0;
    outcomes[index] = { score, vote: step.vote };
    running.set(key, score - step.change);
  }
  return outcomes;
}

/** Applies a batch on votes read without a lock; rejects with VOTE_CHANGED_MEANWHILE when one of them changed before the write. */
export async function applyVotesOptimistically(db: Queryable, calls: readonly VoteCall[]): Promise<VoteOutcome[]> {
  const distinct = distinctVotes(calls);
  const { rows } = await run<VoteRow>(db, READ_VOTES, voteParameters(distinct));
  return decideAndApply(db, calls, distinct, storedVotes(rows));
}

/** Applies a batch in the transaction `client` is in, every vote row locked before it is read: none can change meanwhile. */
export async function applyVotesLocked(client: PoolClient, calls: readonly VoteCall[]): Promise<VoteOutcome[]> {
  const distinct = distinctVotes(calls);
  const { rows } = await run<VoteRow>(client, LOCK_VOTES, voteParameters(distinct));
  return decideAndApply(client, calls, distinct, storedVotes(rows));
}
