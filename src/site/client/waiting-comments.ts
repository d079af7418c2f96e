/**
 * The reader's own comments waiting for approval (MODERATION), kept in this
 * browser (kept-waiting.ts) from the responses that stored them; one is
 * forgotten once the thread shows it.
 */
import { forgetKept, readKept, writeKept } from './kept-waiting.ts';

export { stillKept } from './kept-waiting.ts';

export interface WaitingComment {
  id: string;
  articleSlug: string;
  parentId: string | null;
  body: string;
  createdAt: string;
}

const STORAGE_KEY = 'longhand.waitingComments';

/** What is kept of a response that stored a comment `pending`; null for a response that does not describe one. */
export function waitingFrom(answer: Record<string, unknown>): WaitingComment | null {
  const { id, articleSlug, parentId, body, createdAt } = answer;
  if (typeof id !== 'string' || typeof articleSlug !== 'string' || typeof body !== 'string' || typeof createdAt !== 'string') return null;
  return { id, articleSlug, parentId: typeof parentId === 'string' ? parentId : null, body, createdAt };
}

/** Keeps a comment the API answered `pending`. */
export function rememberWaiting(answer: Record<string, unknown>): void {
  const waiting = waitingFrom(answer);
  if (waiting) writeKept(STORAGE_KEY, [...readKept<WaitingComment>(STORAGE_KEY), waiting]);
}

/** The waiting comments on an article, oldest first, those kept too long forgotten. */
export function waitingOn(articleSlug: string): WaitingComment[] {
  return readKept<WaitingComment>(STORAGE_KEY).filter((comment) => comment.articleSlug === articleSlug);
}

/** Forgets a comment the thread now shows as published. */
export function forgetWaiting(id: string): void {
  forgetKept(STORAGE_KEY, id);
}
