/**
 * The reader's own topic requests waiting for approval (MODERATION), kept in
 * this browser (kept-waiting.ts) from the write that stored them: /answers
 * lists them to their writer only, until the page lists them (approved).
 */
import { forgetKept, readKept, writeKept } from './kept-waiting.ts';

export interface WaitingTopic {
  id: string;
  requestTitle: string;
  details: string | null;
  createdAt: string;
}

const STORAGE_KEY = 'longhand.waitingTopicRequests';

/** What is kept of a topic request the API answered `waiting`, from its answer and the fields sent; null for any other answer. */
export function waitingTopicFrom(answer: Record<string, unknown>, sent: Record<string, unknown>, now: Date): WaitingTopic | null {
  const { id, status } = answer;
  const { requestTitle, details } = sent;
  if (status !== 'waiting' || typeof id !== 'string' || typeof requestTitle !== 'string') return null;
  const detailsText = typeof details === 'string' ? details.trim() : '';
  return { id, requestTitle: requestTitle.trim(), details: detailsText === '' ? null : detailsText, createdAt: now.toISOString() };
}

/** Keeps a topic request the API answered `waiting`. */
export function rememberWaitingTopic(topic: WaitingTopic): void {
  writeKept(STORAGE_KEY, [...readKept<WaitingTopic>(STORAGE_KEY), topic]);
}

/**
 * The kept topic requests the page does not list yet, newest first; those it
 * lists (`listedIds`: approved) are forgotten.
 */
export function waitingTopics(listedIds: ReadonlySet<string>): WaitingTopic[] {
  const kept = readKept<WaitingTopic>(STORAGE_KEY);
  for (const topic of kept) if (listedIds.has(topic.id)) forgetKept(STORAGE_KEY, topic.id);
  return kept.filter((topic) => !listedIds.has(topic.id)).reverse();
}
