import { now } from './clock.ts';
import { newId } from './ids.ts';
import { notification } from './shapes.ts';
import type {
  BugReport,
  CitySubmission,
  Mention,
  Notification,
  NotificationChannel,
  OutboxEntry,
  StoredComment,
  TopicRequest,
} from './types.ts';

/** What the owner is told of a verified Webmention, as a record of its own: its notification's fields but its kind. */
type VerifiedMention = Omit<Extract<Notification, { kind: 'mention' }>, 'kind'>;

/** A record that the owner is told of, by kind: a stored one, or a Webmention's first verification (firstVerification). */
export type Notified =
  | { kind: 'comment'; record: StoredComment }
  | { kind: 'topicRequest'; record: TopicRequest }
  | { kind: 'bugReport'; record: BugReport }
  | { kind: 'citySubmission'; record: CitySubmission }
  | { kind: 'mention'; record: VerifiedMention };

/**
 * What the owner is told when `next` takes the place of `kept`: a received
 * Webmention verified for the first time (unverified, now waiting or
 * published), under a new id, dated when it was verified. Null for any other
 * change: a verification again, an approval, a sent one settled.
 */
export function firstVerification(kept: Pick<Mention, 'status'>, next: Mention): Notified | null {
  if (kept.status !== 'unverified' || (next.status !== 'waiting' && next.status !== 'published')) return null;
  const { source, articleSlug, lang, status, kind, authorName, authorUrl, content, settledAt } = next;
  const told = { source, articleSlug, lang, status, mentionKind: kind ?? 'mention', authorName, authorUrl, body: content };
  return { kind: 'mention', record: { id: newId(), createdAt: settledAt ?? now(), ...told } };
}

/** An outbox entry named by its id and channel: the rest of it is its record's (outboxEntriesOf). */
export type OutboxRef = Pick<OutboxEntry, 'id' | 'channel'>;

/**
 * The id of a new record's outbox entry for `channel`: the record's id and
 * the channel, so that an engine can find the entry from its record and keep
 * no id of its own for it. Record ids are base64url and hold no dot; an entry
 * whose id is not of this form (an import's) keeps the id it has.
 */
export function outboxIdOf(recordId: string, channel: NotificationChannel): string {
  return `${recordId}.${channel}`;
}

/** Whether `id` is `outboxIdOf(recordId, channel)`, without making that string. */
export function isOutboxIdOf(id: string, recordId: string, channel: NotificationChannel): boolean {
  return (
    id.length === recordId.length + 1 + channel.length && id.startsWith(recordId) && id.endsWith(channel) && id[recordId.length] === '.'
  );
}

/** The names of a new record's outbox entries, one per channel this store notifies; none when no channel is set. */
export function outboxRefsOf(recordId: string, channels: readonly NotificationChannel[]): OutboxRef[] {
  return channels.map((channel) => ({ id: outboxIdOf(recordId, channel), channel }));
}

/** Each kind's notification fields, in the order `notification` declares them. */
const TOLD_FIELDS = new Map(notification.options.map((option) => [option.shape.kind.value, Object.keys(option.shape)]));

/**
 * What the owner is told of a stored record: the fields `notification` names
 * and nothing else (never the reader's hash). The record was checked when it
 * was stored, so its fields are taken as they are rather than parsed again,
 * on every write.
 */
export function notificationOf({ kind, record }: Notified): Notification {
  const told: Record<string, unknown> = {};
  for (const field of TOLD_FIELDS.get(kind) ?? []) told[field] = field === 'kind' ? kind : record[field as keyof typeof record];
  return told as Notification;
}

/** The outbox entries a new record brings, one per ref, due at once, sharing one notification. */
export function outboxEntriesOf(notified: Notified, refs: readonly OutboxRef[]): OutboxEntry[] {
  if (refs.length === 0) return [];
  const told = notificationOf(notified);
  const { createdAt } = notified.record;
  return refs.map(({ id, channel }) => ({ id, channel, notification: told, createdAt, attempts: 0, dueAt: createdAt }));
}

/**
 * When a send that failed `attempts` times before (0: the first failure) is
 * due again (ISO 8601): `firstMs` later, doubling with each failure, never
 * more than `mostMs`. The outbox's channels, the newsletter's queue and the
 * federation's deliveries alike.
 */
export function retryAt(attempts: number, firstMs: number, mostMs: number): string {
  return new Date(Date.now() + Math.min(firstMs * 2 ** attempts, mostMs)).toISOString();
}

/** How long a stopping sender lets the sends under way go on before it aborts them. */
const STOP_GRACE_MS = 3000;

/**
 * How every sender stops: waits for `sending` to settle, and aborts `sends`
 * (the signal each send under way is given) once the grace is over, so that
 * a send that hangs holds no stop for longer.
 */
export async function settledWithinGrace(sending: Promise<unknown>, sends: AbortController): Promise<void> {
  const grace = setTimeout(() => {
    sends.abort();
  }, STOP_GRACE_MS);
  try {
    await sending;
  } finally {
    clearTimeout(grace);
  }
}
