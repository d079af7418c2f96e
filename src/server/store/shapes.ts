import { z } from 'zod';
import { SLUG_PATTERN } from '../articles/source.ts';
import type { BugReport, CitySubmission, ExportRecord, Notification, OutboxEntry, StoredComment, TopicRequest } from './types.ts';

/**
 * The stored records as zod schemas: what the embedded store checks its files
 * against, and what an import checks each line of an export against.
 */

export const slug = z.string().regex(SLUG_PATTERN, 'is not a slug');
export const text = z.string();
export const isoDate = z.iso.datetime({ offset: true });

export const comment = z.object({
  id: text.min(1),
  articleSlug: slug,
  parentId: text.min(1).nullable(),
  depth: z.number().int().min(1),
  author: text,
  authorHash: text,
  body: text,
  createdAt: isoDate,
  score: z.number().int(),
  // Files written before deletion existed have no such field.
  deletedAt: isoDate.nullable().default(null),
  // Nor before moderation: every comment was published.
  status: z.enum(['published', 'pending']).default('published'),
}) satisfies z.ZodType<StoredComment>;

export const topicRequest = z.object({
  id: text.min(1),
  requestTitle: text,
  details: text.nullable(),
  status: z.enum(['pending', 'answered', 'declined']),
  answerUrl: text.nullable().default(null),
  authorHash: text,
  createdAt: isoDate,
}) satisfies z.ZodType<TopicRequest>;

export const bugReport = z.object({
  id: text.min(1),
  description: text,
  pagePath: text.nullable(),
  authorHash: text,
  createdAt: isoDate,
  reviewedAt: isoDate.nullable().default(null),
}) satisfies z.ZodType<BugReport>;

export const citySubmission = z.object({
  id: text.min(1),
  cityId: text,
  city: text,
  country: text,
  countryName: text,
  region: text.nullable(),
  lat: z.number(),
  lon: z.number(),
  currency: text,
  netPay: z.number(),
  rent: z.number(),
  beerPrice: z.number(),
  authorHash: text,
  createdAt: isoDate,
  reviewedAt: isoDate.nullable().default(null),
}) satisfies z.ZodType<CitySubmission>;

/** A notification: the stored record without what the owner is not told (the reader's hash); parsing a record drops it. */
export const notification: z.ZodType<Notification> = z.discriminatedUnion('kind', [
  comment.omit({ authorHash: true, score: true, deletedAt: true }).extend({ kind: z.literal('comment') }),
  topicRequest.pick({ id: true, requestTitle: true, details: true, createdAt: true }).extend({ kind: z.literal('topicRequest') }),
  bugReport.pick({ id: true, description: true, pagePath: true, createdAt: true }).extend({ kind: z.literal('bugReport') }),
  citySubmission.omit({ authorHash: true, reviewedAt: true }).extend({ kind: z.literal('citySubmission') }),
]);

export const outboxEntry: z.ZodType<OutboxEntry> = z.object({
  id: text.min(1),
  channel: z.enum(['email', 'webhook']),
  notification,
  createdAt: isoDate,
  attempts: z.number().int().nonnegative(),
  dueAt: isoDate,
});

export const ban = z.object({ readerHash: text.min(1), since: isoDate });
export type StoredBan = z.infer<typeof ban>;

/** One line of an export (ExportRecord). */
export const exportRecord: z.ZodType<ExportRecord> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('salt'), salt: text.min(32) }),
  z.object({ kind: z.literal('comment'), comment }),
  z.object({
    kind: z.literal('vote'),
    articleSlug: slug,
    commentId: text.min(1).nullable(),
    voter: text.min(1),
    vote: z.union([z.literal(-1), z.literal(1)]),
  }),
  z.object({ kind: z.literal('topicRequest'), item: topicRequest }),
  z.object({ kind: z.literal('bugReport'), item: bugReport }),
  z.object({ kind: z.literal('citySubmission'), item: citySubmission }),
  z.object({ kind: z.literal('ban'), readerHash: text.min(1), since: isoDate }),
]);
