import { z } from 'zod';
import { LANGUAGE_CODES, type LanguageCode } from '../../i18n/languages.ts';
import { SLUG_PATTERN } from '../articles/source.ts';

/**
 * The stored records as zod schemas, each record's one declaration: the
 * TypeScript types (types.ts) are inferred from them, the embedded store
 * checks its files against them, an import checks each line of an export
 * against them, and tests/store/columns.test.ts checks PostgreSQL's columns
 * against them (a field `createdAt` is the column `created_at`).
 */

export const slug = z.string().regex(SLUG_PATTERN, 'is not a slug');
export const text = z.string();
export const isoDate = z.iso.datetime({ offset: true });

/**
 * Where a comment that came from the fediverse came from: the remote post's
 * id (which its comment id is made from, so that an Update or a Delete of it
 * finds it), its author's actor id, and the profile page readers are linked to.
 */
const remoteAuthor = z.object({ object: z.url(), actor: z.url(), profile: z.url() });

/** The comment systems whose exports the data tool imports (src/server/imports/). */
export const commentSystem = z.enum(['artalk', 'disqus', 'isso', 'remark42', 'wordpress']);

/**
 * Where an imported comment was written: the comment system it came from,
 * and the website its author gave there (an http or https URL), if any.
 */
const importedAuthor = z.object({ source: commentSystem, website: z.url({ protocol: /^https?$/ }).nullable() });

/** Whether readers see a comment (`published`), or it waits for the owner's approval (`pending`: only its writer knows of it). */
export const commentStatus = z.enum(['published', 'pending']);

export const comment = z.object({
  id: text.min(1),
  articleSlug: slug,
  parentId: text.min(1).nullable(),
  /** 1 for a top-level comment, up to 4. */
  depth: z.number().int().min(1),
  /** The colour-and-animal name shown for the author. */
  author: text,
  /** The salted hash of the author's address: never shown, kept so an owner can block a reader. */
  authorHash: text,
  /** The raw text, never rendered as HTML. */
  body: text,
  /** ISO 8601 */
  createdAt: isoDate,
  /** Ups minus downs. */
  score: z.number().int(),
  /**
   * When the owner deleted it (ISO 8601): its body is then empty; it keeps its place so its replies keep theirs.
   * A record without the field was never deleted.
   */
  deletedAt: isoDate.nullable().default(null),
  /**
   * A pending comment has no reply and no vote: it is published by the owner's approval, or removed outright.
   * A record without the field is published.
   */
  status: commentStatus.default('published'),
  /**
   * For a reply from the fediverse (src/server/federation/replies.ts): the
   * remote actor who wrote it and the page that shows them; null or absent
   * for the site's own readers.
   */
  remote: remoteAuthor.nullish(),
  /**
   * For a comment imported from another comment system (npm run data --
   * import --from): `author` is then the name its author gave there. Null or
   * absent for every other comment.
   */
  imported: importedAuthor.nullish(),
});

/**
 * Where a topic request stands: waiting for the owner's approval (MODERATION: only its writer knows of it), new and
 * listed (`pending`), answered by an article, or declined by the owner.
 */
export const topicRequestStatus = z.enum(['waiting', 'pending', 'answered', 'declined']);

export const topicRequest = z.object({
  id: text.min(1),
  requestTitle: text,
  details: text.nullable(),
  status: topicRequestStatus,
  /** The article that answers it; set when, and only when, the status is answered. */
  answerUrl: text.nullable().default(null),
  authorHash: text,
  createdAt: isoDate,
});

export const bugReport = z.object({
  id: text.min(1),
  description: text,
  pagePath: text.nullable(),
  authorHash: text,
  createdAt: isoDate,
  /** When the owner marked it reviewed; null while it waits in the review queue. */
  reviewedAt: isoDate.nullable().default(null),
});

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
  /** When the owner marked it reviewed; null while it waits in the review queue. */
  reviewedAt: isoDate.nullable().default(null),
});

/** A reader's vote on an article (commentId null) or on one of its comments; a removed vote is not exported. */
/** A vote cast: up (1) or down (-1). */
export const castVote = z.union([z.literal(1), z.literal(-1)]);
/** A voter's vote as it stands: up, down, or none (0). */
export const voteValue = z.union([z.literal(1), z.literal(-1), z.literal(0)]);

export const vote = z.object({
  articleSlug: slug,
  commentId: text.min(1).nullable(),
  voter: text.min(1),
  vote: castVote,
});

/** One of the site's languages. */
const language = z.enum(LANGUAGE_CODES as [LanguageCode, ...LanguageCode[]]);

/** Which way a Webmention goes: `received` from another site about a page here, or `sent` from an article here. */
const mentionDirection = z.enum(['received', 'sent']);

/**
 * Where a Webmention stands. Received: `unverified` until its source was read, then `published` (shown under the
 * thread) or `waiting` for the owner (MODERATION=first). Sent: `unsent`, then `sent` or `refused` (given up on).
 */
const mentionStatus = z.enum(['unverified', 'waiting', 'published', 'unsent', 'sent', 'refused']);

/** What a verified source's h-entry is to its target: an answer, a like, a repost, or a mere mention. */
const mentionKind = z.enum(['reply', 'like', 'repost', 'mention']);

/**
 * One Webmention (src/server/federation/webmention/), one per source and target: for a received one, the target
 * is an article translation's page here; for a sent one, the source is. Work waits on it while `dueAt` is set.
 */
export const mention = z.object({
  source: z.url(),
  target: z.url(),
  direction: mentionDirection,
  /** The article translation it is about (the target's received, the source's sent). */
  articleSlug: slug,
  lang: language,
  status: mentionStatus,
  /** Read from the source's h-entry once verified; null before, and for a sent one. */
  kind: mentionKind.nullable(),
  authorName: text.nullable(),
  authorUrl: z.url().nullable(),
  /** The source's text as plain text, never HTML; null for a like or a repost. */
  content: text.nullable(),
  receivedAt: isoDate,
  /** When it was last verified (received) or settled (sent). */
  settledAt: isoDate.nullable(),
  /** Failed attempts at the work due. */
  attempts: z.number().int().nonnegative(),
  /** When its source is to be verified (again), or it is to be sent; null when nothing is due. */
  dueAt: isoDate.nullable(),
});

/**
 * What the owner is told of a received Webmention verified for the first time: its source, its article and what its
 * source's h-entry says, shown (`published`) or `waiting` for the owner; named by an id of its own (a mention has
 * none) and dated when it was verified. The h-entry's kind and text are `mentionKind` and `body`, since `kind` names
 * the notification and a webhook's body has a `content` of its own (notifications/message.ts).
 */
const mentionNotification = mention.pick({ source: true, articleSlug: true, lang: true, authorName: true, authorUrl: true }).extend({
  kind: z.literal('mention'),
  id: text.min(1),
  createdAt: isoDate,
  status: mentionStatus.extract(['waiting', 'published']),
  mentionKind,
  body: mention.shape.content,
});

/**
 * What the owner is told of a new write: the stored record without the
 * reader's hash, or a verified Webmention (above). These fields are all a
 * notification takes from its record (store/outbox.ts), and all an outbox
 * entry read back may hold. Its kind and id name the record, so that a later
 * action on it (approve, delete, ban) can be linked from it.
 */
export const notification = z.discriminatedUnion('kind', [
  comment.omit({ authorHash: true, score: true, deletedAt: true, remote: true, imported: true }).extend({ kind: z.literal('comment') }),
  topicRequest.pick({ id: true, requestTitle: true, details: true, createdAt: true }).extend({ kind: z.literal('topicRequest') }),
  bugReport.pick({ id: true, description: true, pagePath: true, createdAt: true }).extend({ kind: z.literal('bugReport') }),
  citySubmission.omit({ authorHash: true, reviewedAt: true }).extend({ kind: z.literal('citySubmission') }),
  mentionNotification,
]);

/** Where the owner hears of new writes: the outbox keeps one entry per notification and channel. */
export const notificationChannel = z.enum(['email', 'webhook']);

/**
 * A notification waiting in the outbox for one channel. It is stored with the
 * write it tells of (the same journal record, the same statement), and leaves
 * the outbox only once it was sent.
 */
export const outboxEntry = z.object({
  id: text.min(1),
  channel: notificationChannel,
  notification,
  /** ISO 8601 */
  createdAt: isoDate,
  /** Failed sends so far. */
  attempts: z.number().int().nonnegative(),
  /** When it may be sent (again), ISO 8601. */
  dueAt: isoDate,
});

/**
 * An outbox entry named by its id and channel, as the embedded store's
 * journal keeps it in its record's line: its notification, dates and
 * attempts are made from that record (store/outbox.ts), so the line does not
 * hold the record a second time for each channel.
 */
export const outboxRef = outboxEntry.pick({ id: true, channel: true });

/** The owner's ban of a reader, until lifted. */
export const ban = z.object({ readerHash: text.min(1), since: isoDate });

/**
 * A moderation link that was used (src/server/owner/moderation-links.ts): its
 * token's signed payload, spent for good, and when the link stops working,
 * after which the record may be dropped, the link being refused anyway.
 */
export const spentLink = z.object({ link: text.min(1), expiresAt: isoDate });

/** A secret kept with the store (the federation's key pairs), by a name of lower-case letters, digits and dashes. */
export const secretName = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'is not a secret name');

/**
 * A remote actor that follows the actor of one language
 * (src/server/federation/): where activities for it are delivered, its
 * own inbox and, when its server has one, the shared inbox.
 */
export const follower = z.object({
  lang: z.enum(LANGUAGE_CODES as [LanguageCode, ...LanguageCode[]]),
  actorId: z.url(),
  inbox: z.url(),
  sharedInbox: z.url().nullable(),
  /** When it followed (ISO 8601); a follow again keeps the first time. */
  followedAt: isoDate,
});

/**
 * A fediverse instance's host name as the owner blocks it: lower-case, with
 * no port (an IPv6 address in brackets).
 */
export const instanceHost = z
  .string()
  .max(253)
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/, 'is not a host name');

/** An instance the owner blocked: nothing from it is taken, nothing is sent to it, and a block covers the hosts under it. */
export const instanceBlock = z.object({ host: instanceHost, blockedAt: isoDate });

/** What a fediverse reader did to an article: liked it, or boosted it (an `Announce`). */
export const reactionKind = z.enum(['like', 'boost']);

/** One remote actor's like or boost of an article (of any of its translations), kept until its `Undo`: one per actor and kind. */
export const reaction = z.object({ articleSlug: slug, kind: reactionKind, actorId: z.url(), at: isoDate });

/** What is handed an article translation once it becomes visible (src/server/appearances/). */
export const appearanceConsumer = z.enum(['newsletter', 'federation']);

/** What an appearance's version is to its consumers: it became visible, its text changed, or it was withdrawn. */
export const appearanceChange = z.enum(['create', 'update', 'delete']);

/**
 * An article translation (`slug` in `lang`, a file the writer wrote) as it
 * became visible, then changed or was withdrawn, one record a translation
 * across every process sharing the store: each change is a new version,
 * handed to the consumers once.
 */
export const appearance = z.object({
  slug,
  lang: language,
  appearedAt: isoDate,
  /** Visible already when appearances were first recorded on this store: kept so as to be known, handed to no consumer. */
  baseline: z.boolean(),
  /** The consumers its version is still to be handed to; it leaves this list once handed. */
  waiting: z.array(appearanceConsumer),
  /** 1 when it first appeared, one more at each change recorded since. */
  version: z.number().int().positive().default(1),
  /** What its version is: `delete` while it is withdrawn (a draft again, dated ahead, or its file removed). */
  change: appearanceChange.default('create'),
  /** The digest of what a follower sees of it (articles/catalog.ts); null when recorded before digests were kept. */
  digest: text.nullable().default(null),
  /** When its version was recorded, for a version after the first; null for the first. */
  updatedAt: isoDate.nullable().default(null),
});

/** A subscription asked for (`pending`, until its address confirms it) or confirmed. */
const subscriberStatus = z.enum(['pending', 'confirmed']);

/**
 * A reader subscribed by email. The address is the only personal data the
 * site keeps: it leaves the store only for the subscriber's own emails and
 * the owner's export, never for a log, a metric or an answer.
 */
export const subscriber = z.object({
  id: text.min(1),
  /** Trimmed and lower-cased: one subscription an address. */
  email: text.min(3),
  lang: language,
  status: subscriberStatus,
  createdAt: isoDate,
  confirmedAt: isoDate.nullable(),
  /** When the last confirmation email was sent: none goes again for an hour. */
  confirmationSentAt: isoDate,
});

/**
 * One article translation's email to one subscriber: kept once sent
 * (`sentAt`), so that it is never queued, and so never sent, twice.
 */
export const newsletterIssue = z.object({
  /** The appearance it comes from. */
  slug,
  lang: language,
  subscriberId: text.min(1),
  createdAt: isoDate,
  /** Failed sends so far. */
  attempts: z.number().int().nonnegative(),
  /** When it may be sent (again). */
  dueAt: isoDate,
  sentAt: isoDate.nullable(),
});

/** What an activity delivered to followers does with an article translation (src/server/federation/deliverer.ts). */
const deliveryActivity = z.enum(['create', 'update', 'delete']);

/**
 * One activity of a language's actor for one remote inbox: kept once
 * settled (`settledAt`), so that it is never queued, and so never
 * delivered, twice to that inbox.
 */
export const delivery = z.object({
  /** The activity's id: a remote server knows it by this, and with `inbox` it is delivered once. */
  activityId: z.url(),
  activity: deliveryActivity,
  /** The article translation it carries. */
  slug,
  lang: language,
  /** A follower's inbox, or its server's shared inbox. */
  inbox: z.url(),
  createdAt: isoDate,
  /** Failed deliveries so far. */
  attempts: z.number().int().nonnegative(),
  /** When it may be delivered (again). */
  dueAt: isoDate,
  settledAt: isoDate.nullable(),
  /** `delivered`; or `refused`, given up on: the inbox is gone (404, 410), its address is private, or it failed too often. */
  outcome: z.enum(['delivered', 'refused']).nullable(),
});

/**
 * One line of an export: everything a store holds is a sequence of these, parents before replies, comments before
 * votes, then the notifications not sent yet, so that they are sent from the store they move to, and last the
 * appearances, subscribers and their newsletter's issues (subscribers before their issues), the federation's
 * deliveries, and the Webmentions.
 */
export const exportRecord = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('salt'), salt: text.min(32) }),
  z.object({ kind: z.literal('secret'), name: secretName, value: text.min(1) }),
  z.object({ kind: z.literal('comment'), comment }),
  z.object({ kind: z.literal('vote'), ...vote.shape }),
  z.object({ kind: z.literal('reaction'), item: reaction }),
  z.object({ kind: z.literal('topicRequest'), item: topicRequest }),
  z.object({ kind: z.literal('bugReport'), item: bugReport }),
  z.object({ kind: z.literal('citySubmission'), item: citySubmission }),
  z.object({ kind: z.literal('ban'), ...ban.shape }),
  z.object({ kind: z.literal('spentLink'), ...spentLink.shape }),
  z.object({ kind: z.literal('follower'), item: follower }),
  z.object({ kind: z.literal('instanceBlock'), item: instanceBlock }),
  z.object({ kind: z.literal('notification'), entry: outboxEntry }),
  z.object({ kind: z.literal('appearance'), item: appearance }),
  z.object({ kind: z.literal('subscriber'), item: subscriber }),
  z.object({ kind: z.literal('newsletterIssue'), item: newsletterIssue }),
  z.object({ kind: z.literal('delivery'), item: delivery }),
  z.object({ kind: z.literal('mention'), item: mention }),
]);
