import { newId } from './ids.ts';
import { notification } from './shapes.ts';
import type { BugReport, CitySubmission, NotificationChannel, OutboxEntry, StoredComment, TopicRequest } from './types.ts';

/** A stored record that the owner is told of, by kind. */
export type Notified =
  | { kind: 'comment'; record: StoredComment }
  | { kind: 'topicRequest'; record: TopicRequest }
  | { kind: 'bugReport'; record: BugReport }
  | { kind: 'citySubmission'; record: CitySubmission };

/** An outbox entry named by its id and channel: the rest of it is its record's (outboxEntriesOf). */
export type OutboxRef = Pick<OutboxEntry, 'id' | 'channel'>;

/** The names of a new record's outbox entries, one per channel this store notifies; none when no channel is set. */
export function newOutboxRefs(channels: readonly NotificationChannel[]): OutboxRef[] {
  return channels.map((channel) => ({ id: newId(), channel }));
}

/**
 * The outbox entries a new record brings, one per ref, due at once. The
 * notification is parsed from the record, so that it holds only what
 * `notification` names: never the reader's hash.
 */
export function outboxEntriesOf({ kind, record }: Notified, refs: readonly OutboxRef[]): OutboxEntry[] {
  if (refs.length === 0) return [];
  const told = notification.parse({ ...record, kind });
  return refs.map(({ id, channel }) => ({
    id,
    channel,
    notification: told,
    createdAt: record.createdAt,
    attempts: 0,
    dueAt: record.createdAt,
  }));
}
