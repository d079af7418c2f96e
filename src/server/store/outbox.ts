import { newId } from './ids.ts';
import { notification } from './shapes.ts';
import type { BugReport, CitySubmission, NotificationChannel, OutboxEntry, StoredComment, TopicRequest } from './types.ts';

/** A stored record that the owner is told of, by kind. */
export type Notified =
  | { kind: 'comment'; record: StoredComment }
  | { kind: 'topicRequest'; record: TopicRequest }
  | { kind: 'bugReport'; record: BugReport }
  | { kind: 'citySubmission'; record: CitySubmission };

/**
 * The outbox entries a new record brings, one per channel, due at once; none
 * when no channel is set. The notification is parsed from the record, so that
 * it holds only what `notification` names: never the reader's hash.
 */
export function outboxEntriesOf({ kind, record }: Notified, channels: readonly NotificationChannel[]): OutboxEntry[] {
  if (channels.length === 0) return [];
  const told = notification.parse({ ...record, kind });
  return channels.map((channel) => ({
    id: newId(),
    channel,
    notification: told,
    createdAt: record.createdAt,
    attempts: 0,
    dueAt: record.createdAt,
  }));
}
