import { createHash } from 'node:crypto';
import { now } from './clock.ts';
import { newId } from './ids.ts';
import type { LanguageCode } from '../../i18n/languages.ts';
import { bugReport, citySubmission, comment, mention, subscriber, topicRequest } from './shapes.ts';
import type {
  Appearance,
  AppearanceChange,
  AppearanceConsumer,
  ArticleTranslation,
  RecordedAppearances,
  VisibleTranslation,
  DeliveredActivity,
  Delivery,
  DeliveryKey,
  Mention,
  MentionKey,
  IssueKey,
  NewsletterIssue,
  Subscriber,
  SubscriberCounts,
  BugReport,
  CitySubmission,
  NewBugReport,
  NewCitySubmission,
  NewComment,
  NewTopicRequest,
  StoredBan,
  StoredComment,
  TopicRequest,
} from './types.ts';

/**
 * The records a write stores, made once for every engine: a new id, the time
 * of the write, the fields a new record starts with, checked against its
 * schema (shapes.ts), so that an engine stores only what it could read back.
 */

export function newComment(fields: NewComment): StoredComment {
  const id = fields.remote ? remoteCommentId(fields.remote.object) : newId();
  return comment.parse({
    ...fields,
    id,
    createdAt: now(),
    score: 0,
    deletedAt: null,
    remote: fields.remote ?? null,
    imported: fields.imported ?? null,
  });
}

/**
 * `host` and the domains above it, nearest first: a block of
 * `example.social` covers `eu.example.social`. An IP address is itself alone.
 */
export function hostAndParents(host: string): string[] {
  if (host.startsWith('[') || /^[\d.]+$/.test(host)) return [host];
  const labels = host.split('.');
  return labels.map((_, index) => labels.slice(index).join('.'));
}

/** Whether the host of `url` is `blocked` or under it. */
export function isUnder(url: string, blocked: string): boolean {
  const { hostname } = new URL(url);
  return hostname === blocked || hostname.endsWith(`.${blocked}`);
}

/**
 * The id of the comment a remote post became: made from the post's id, 16
 * URL-safe characters as every id, so that an Update or a Delete of the post
 * finds its comment, and the same post delivered twice is one comment.
 */
export function remoteCommentId(object: string): string {
  return createHash('sha256').update(object).digest('base64url').slice(0, 16);
}

/** Listed at once (`pending`) unless it waits for approval. */
export function newTopicRequest(fields: NewTopicRequest): TopicRequest {
  return topicRequest.parse({ status: 'pending', ...fields, id: newId(), createdAt: now(), answerUrl: null });
}

export function newBugReport(fields: NewBugReport): BugReport {
  return bugReport.parse({ ...fields, id: newId(), createdAt: now(), reviewedAt: null });
}

export function newCitySubmission(fields: NewCitySubmission): CitySubmission {
  return citySubmission.parse({ ...fields, id: newId(), createdAt: now(), reviewedAt: null });
}

/** The owner's ban of a reader, from now. */
export function newBan(readerHash: string): StoredBan {
  return { readerHash, since: now() };
}

/** Counts subscribers (`count` each, 1 when not given) by language and status. */
export function countSubscribers(rows: Iterable<Pick<Subscriber, 'lang' | 'status'> & { count?: number }>): SubscriberCounts {
  const counts: SubscriberCounts = {};
  for (const { lang, status, count = 1 } of rows) {
    const forLanguage = (counts[lang] ??= { confirmed: 0, pending: 0 });
    forLanguage[status] += count;
  }
  return counts;
}

/** A subscription asked for now, pending until confirmed, its confirmation sent now. */
export function newSubscriber(email: string, lang: LanguageCode): Subscriber {
  const at = now();
  return subscriber.parse({ id: newId(), email, lang, status: 'pending', createdAt: at, confirmedAt: null, confirmationSentAt: at });
}

/** The issues of an appearance for these subscribers, due now. */
export function newIssues({ slug, lang }: ArticleTranslation, subscriberIds: readonly string[]): NewsletterIssue[] {
  const at = now();
  return subscriberIds.map((subscriberId) => ({ slug, lang, subscriberId, createdAt: at, attempts: 0, dueAt: at, sentAt: null }));
}

/** The key of an appearance: its translation. */
export function appearanceKey({ slug, lang }: ArticleTranslation): string {
  return `${slug}/${lang}`;
}

/** What recording the visible translations writes: `writes` (new versions, and digests filled in silently), `recorded` (the versions). */
interface AppearanceWrites extends RecordedAppearances {
  writes: Appearance[];
}

/**
 * What recording `visible`, every translation visible now, changes in
 * `known`, every appearance recorded (AppearanceStore.recordAppearances):
 * one not recorded appears (a baseline, waiting for no one, when nothing is
 * recorded yet); one whose digest changed is updated; one recorded and no
 * longer visible is withdrawn; a withdrawn one visible again appears again.
 * A new version waits for `consumers`. A change to an appearance whose
 * version still waits for one of them waits for a later call (`deferred`),
 * so that each consumer is handed every change, in order. A digest missing
 * (recorded before digests were kept) is filled in, no version recorded.
 */
export function appearanceWrites(
  known: Iterable<Appearance>,
  visible: readonly VisibleTranslation[],
  consumers: readonly AppearanceConsumer[],
): AppearanceWrites {
  const at = now();
  const byKey = new Map([...known].map((item) => [appearanceKey(item), item]));
  const baseline = byKey.size === 0;
  const result: AppearanceWrites = { writes: [], recorded: [], deferred: false };
  const version = (item: Appearance) => {
    result.writes.push(item);
    result.recorded.push(item);
  };
  const next = (was: Appearance, change: AppearanceChange, digest: string | null) => {
    if (was.waiting.some((consumer) => consumers.includes(consumer))) result.deferred = true;
    else version({ ...was, version: was.version + 1, change, digest, waiting: [...consumers], updatedAt: at });
  };
  const seen = new Set<string>();
  for (const { slug, lang, digest } of visible) {
    const key = appearanceKey({ slug, lang });
    if (seen.has(key)) continue;
    seen.add(key);
    const was = byKey.get(key);
    if (!was) {
      const waiting = baseline ? [] : [...consumers];
      version({ slug, lang, appearedAt: at, baseline, waiting, version: 1, change: 'create', digest, updatedAt: null });
    } else if (was.change === 'delete') next(was, 'create', digest);
    else if (was.digest === null) result.writes.push({ ...was, digest });
    else if (was.digest !== digest) next(was, 'update', digest);
  }
  for (const [key, was] of byKey) if (!seen.has(key) && was.change !== 'delete') next(was, 'delete', was.digest);
  return result;
}

/** How a store normalizes an address: one subscription however it is written. */
export function subscriberAddress(email: string): string {
  return email.trim().toLowerCase();
}

/** The deliveries of an activity to these inboxes, due now. */
export function newDeliveries(activity: DeliveredActivity, inboxes: readonly string[]): Delivery[] {
  const at = now();
  return inboxes.map((inbox) => ({ ...activity, inbox, createdAt: at, attempts: 0, dueAt: at, settledAt: null, outcome: null }));
}

/** The key of a delivery: its activity and its inbox. */
export function deliveryKey({ activityId, inbox }: DeliveryKey): string {
  return `${activityId} ${inbox}`;
}

/** The key of an issue: its appearance and its subscriber. */
export function issueKey({ slug, lang, subscriberId }: IssueKey): string {
  return `${slug}/${lang}/${subscriberId}`;
}

/** The key of a Webmention: its source and its target. */
export function mentionKey({ source, target }: MentionKey): string {
  return `${source} ${target}`;
}

/** A new Webmention, due for its work (a source to verify, a mention to send) now. */
export function newMention(fields: Pick<Mention, 'source' | 'target' | 'articleSlug' | 'lang'>, direction: Mention['direction']): Mention {
  const at = now();
  return mention.parse({
    ...fields,
    direction,
    status: direction === 'received' ? 'unverified' : 'unsent',
    kind: null,
    authorName: null,
    authorUrl: null,
    content: null,
    receivedAt: at,
    settledAt: null,
    attempts: 0,
    dueAt: at,
  });
}
