import { z } from 'zod';
import {
  appearance,
  appearanceConsumer,
  newsletterIssue,
  delivery,
  mention,
  subscriber,
  ban,
  bugReport,
  castVote,
  citySubmission,
  comment,
  isoDate,
  outboxEntry,
  outboxRef,
  reactionKind,
  slug,
  spentLink,
  text,
  voteValue,
  topicRequest,
} from '../shapes.ts';

/**
 * The shapes the embedded store keeps on disk, as zod schemas: the lowdb
 * snapshot documents and the journal's records. Everything read back is
 * checked against them, so a damaged file is reported instead of loaded.
 */

/** A journal sequence number: every record has one, each greater than the last. */
const seq = z.number().int().nonnegative();

const vote = z.object({
  voter: text.min(1),
  /** Null for a vote on the article itself. */
  commentId: text.min(1).nullable(),
  vote: castVote,
});

/** A remote actor's like or boost of the article its thread's file is of. */
const threadReaction = z.object({ kind: reactionKind, actorId: z.url(), at: isoDate });

/** `articles/<slug>.json`: one article's thread, complete up to journal record `journalSeq`. */
export const articleDocument = z.object({
  format: z.literal(1),
  slug,
  journalSeq: seq,
  score: z.number().int(),
  /** Oldest first. */
  comments: z.array(comment),
  votes: z.array(vote),
  /** Oldest first. */
  reactions: z.array(threadReaction).default([]),
});
export type ArticleDocument = z.infer<typeof articleDocument>;
export type StoredVote = z.infer<typeof vote>;
export type ThreadReaction = z.infer<typeof threadReaction>;

/** A collection file (topic requests, bug reports, city submissions), oldest first. */
export function collectionDocument<Item>(item: z.ZodType<Item>) {
  return z.object({ format: z.literal(1), journalSeq: seq, items: z.array(item) });
}
export interface CollectionDocument<Item> {
  format: 1;
  journalSeq: number;
  items: Item[];
}

/** What each stored record must look like, to check a new one before it is kept. */
export const storedShapes = {
  comment,
  topicRequest,
  bugReport,
  citySubmission,
  ban,
  spentLink,
  outboxEntry,
  appearance,
  subscriber,
  newsletterIssue,
  delivery,
};

/**
 * The outbox entries a new record brings, in the record's own journal line:
 * stored with it, or not at all. Named by id and channel (their notification
 * is the record's); a line may hold whole entries too, which are taken as
 * they are: a verified Webmention's, whose notification is not its record.
 */
const outbox = z.array(z.union([outboxEntry, outboxRef])).optional();

/** One line of the journal: a change, numbered. A vote record holds the voter's resulting vote, 0 when removed. */
export const journalRecord = z.discriminatedUnion('op', [
  z.object({ seq, op: z.literal('comment'), comment, outbox }),
  z.object({
    seq,
    op: z.literal('vote'),
    articleSlug: slug,
    commentId: text.min(1).nullable(),
    voter: text.min(1),
    vote: voteValue,
  }),
  // A remote actor's like or boost of an article kept (`on`), or removed by its Undo.
  z.object({ seq, op: z.literal('reaction'), articleSlug: slug, ...threadReaction.shape, on: z.boolean() }),
  z.object({ seq, op: z.literal('topicRequest'), item: topicRequest, outbox }),
  z.object({ seq, op: z.literal('bugReport'), item: bugReport, outbox }),
  z.object({ seq, op: z.literal('citySubmission'), item: citySubmission, outbox }),
  // The sender's changes to the outbox: sent entries leave it, failed ones wait one attempt more.
  z.object({ seq, op: z.literal('outboxSent'), ids: z.array(text.min(1)) }),
  z.object({ seq, op: z.literal('outboxFailed'), ids: z.array(text.min(1)), dueAt: isoDate }),
  // An entry brought by an import (npm run data -- import), as another store kept it.
  z.object({ seq, op: z.literal('outboxAdded'), entry: outboxEntry }),
  // The owner's changes (npm run data).
  z.object({ seq, op: z.literal('deleteComment'), articleSlug: slug, commentId: text.min(1), deletedAt: isoDate }),
  // A reply from the fediverse edited by its author.
  z.object({ seq, op: z.literal('editComment'), articleSlug: slug, commentId: text.min(1), body: text }),
  z.object({ seq, op: z.literal('approveComment'), articleSlug: slug, commentId: text.min(1) }),
  z.object({ seq, op: z.literal('removeComment'), articleSlug: slug, commentId: text.min(1) }),
  z.object({ seq, op: z.literal('answerTopicRequest'), item: topicRequest }),
  z.object({ seq, op: z.literal('approveTopicRequest'), id: text.min(1) }),
  z.object({ seq, op: z.literal('removeTopicRequest'), id: text.min(1) }),
  z.object({ seq, op: z.literal('reviewed'), kind: z.enum(['bugReport', 'citySubmission']), id: text.min(1), reviewedAt: isoDate }),
  z.object({ seq, op: z.literal('ban'), item: ban }),
  z.object({ seq, op: z.literal('unban'), readerHash: text.min(1) }),
  // A moderation link used at `at`: the spent links expired by then leave with it.
  z.object({ seq, op: z.literal('spendLink'), item: spentLink, at: isoDate }),
  // Appearances and the newsletter (newsletter-state.ts); issues are named by issueKey (store/records.ts).
  z.object({ seq, op: z.literal('appearances'), items: z.array(appearance) }),
  z.object({ seq, op: z.literal('appearancesHanded'), consumer: appearanceConsumer, keys: z.array(text.min(1)) }),
  z.object({ seq, op: z.literal('subscriber'), item: subscriber }),
  z.object({ seq, op: z.literal('subscribersRemoved'), ids: z.array(text.min(1)) }),
  z.object({ seq, op: z.literal('issuesQueued'), items: z.array(newsletterIssue) }),
  z.object({ seq, op: z.literal('issuesSent'), keys: z.array(text.min(1)), sentAt: isoDate }),
  z.object({ seq, op: z.literal('issuesFailed'), keys: z.array(text.min(1)), dueAt: isoDate }),
  z.object({ seq, op: z.literal('issuesPruned'), sentBefore: isoDate }),
  // The federation's deliveries (delivery-state.ts), named by deliveryKey (store/records.ts).
  z.object({ seq, op: z.literal('deliveriesQueued'), items: z.array(delivery) }),
  z.object({
    seq,
    op: z.literal('deliveriesSettled'),
    keys: z.array(text.min(1)),
    settledAt: isoDate,
    outcome: delivery.shape.outcome.unwrap(),
  }),
  z.object({ seq, op: z.literal('deliveriesFailed'), keys: z.array(text.min(1)), dueAt: isoDate }),
  z.object({ seq, op: z.literal('deliveriesPruned'), settledBefore: isoDate }),
  // Webmentions (mentions.ts): one kept whole, new or in the place of the one of its source and target, with the
  // notification of its first verification as whole entries; or removed.
  z.object({ seq, op: z.literal('mention'), item: mention, outbox }),
  z.object({ seq, op: z.literal('mentionRemoved'), source: z.url(), target: z.url(), slug }),
]);
export type JournalRecord = z.infer<typeof journalRecord>;

/** A journal record before it is numbered. */
export type JournalChange = { [Op in JournalRecord['op']]: Omit<Extract<JournalRecord, { op: Op }>, 'seq'> }[JournalRecord['op']];

/** The article a change is about, if any. */
export function articleSlugOf(change: JournalChange): string | null {
  if (change.op === 'comment') return change.comment.articleSlug;
  return 'articleSlug' in change ? change.articleSlug : null;
}

/** The error that stops start-up: which file, and what is wrong with it. The file is left as it is. */
export function corruptFile(file: string, detail: string): Error {
  return new Error(`Store file ${file} is corrupt: ${detail}. The store was not opened and the file was not changed.`);
}

/** Checks `value` against `schema`, naming the first problem's place in the document. */
export function validated<T>(schema: z.ZodType<T>, value: unknown, file: string, where = ''): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const place = [where, path].filter(Boolean).join(', at ');
  throw corruptFile(file, `${place ? `${place}: ` : ''}${issue?.message ?? 'invalid'}`);
}
