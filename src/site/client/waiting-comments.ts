/**
 * The reader's own comments waiting for approval (MODERATION), kept in this
 * browser from the responses that stored them: the thread every reader is
 * served never holds them, so only their writer's page shows them, and only
 * in the browser they were written in. One is forgotten once the thread
 * shows it (approved), or after KEPT_MS (a rejected comment is never heard of
 * again: the site tells no one which comments it removed).
 */

export interface WaitingComment {
  id: string;
  articleSlug: string;
  parentId: string | null;
  body: string;
  createdAt: string;
}

const STORAGE_KEY = 'longhand.waitingComments';
const KEPT_MS = 30 * 24 * 3600 * 1000;

function readAll(): WaitingComment[] {
  try {
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(kept) ? (kept as WaitingComment[]) : [];
  } catch {
    // Storage refused (private mode, blocked) or altered by hand: nothing is kept.
    return [];
  }
}

function writeAll(comments: readonly WaitingComment[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(comments));
  } catch {
    // Storage refused: the comment waits all the same, its writer just does not see it here.
  }
}

/** What is kept of a response that stored a comment `pending`; null for a response that does not describe one. */
export function waitingFrom(answer: Record<string, unknown>): WaitingComment | null {
  const { id, articleSlug, parentId, body, createdAt } = answer;
  if (typeof id !== 'string' || typeof articleSlug !== 'string' || typeof body !== 'string' || typeof createdAt !== 'string') return null;
  return { id, articleSlug, parentId: typeof parentId === 'string' ? parentId : null, body, createdAt };
}

/** The comments written less than KEPT_MS before `now` (milliseconds since the epoch), in their order. */
export function stillKept(comments: readonly WaitingComment[], now: number): WaitingComment[] {
  return comments.filter((comment) => now - Date.parse(comment.createdAt) < KEPT_MS);
}

/** Keeps a comment the API answered `pending`. */
export function rememberWaiting(answer: Record<string, unknown>): void {
  const waiting = waitingFrom(answer);
  if (waiting) writeAll([...readAll(), waiting]);
}

/** The waiting comments on an article, oldest first, those kept too long forgotten. */
export function waitingOn(articleSlug: string): WaitingComment[] {
  const all = readAll();
  const fresh = stillKept(all, Date.now());
  if (fresh.length !== all.length) writeAll(fresh);
  return fresh.filter((comment) => comment.articleSlug === articleSlug);
}

/** Forgets a comment the thread now shows as published. */
export function forgetWaiting(id: string): void {
  writeAll(readAll().filter((comment) => comment.id !== id));
}
