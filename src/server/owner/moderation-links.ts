/**
 * One-click moderation links: `<site>/moderation/<token>`, where the token
 * names one action on one comment and when it stops working, signed with the
 * key of the `moderation-link` purpose (src/server/identity/signing.ts). The
 * link holds no reader's hash: a ban names the comment, whose writer the
 * store knows.
 */
import type { KeyObject } from 'node:crypto';
import { refusal, type Refusal } from '../api-frame/refusals.ts';
import { MODERATION_PATH_PREFIX } from '../http/site-paths.ts';
import { sign, verify } from '../identity/signing.ts';
import { MODERATION_ACTIONS, type ModerationAction } from './moderation.ts';
import type { SpentLink } from '../store/types.ts';

/** How long a link works after it was made. */
export const LINK_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** Between the token's fields: no action, date or comment id holds one (ids are base64url). */
const SEPARATOR = '~';

export interface ModerationLink {
  action: ModerationAction;
  url: string;
}

/**
 * What a token says: its action on its comment, and the link as the store
 * spends it (its signed payload, one per token, and when it expires); or why
 * it says nothing (`link_invalid`: altered or not ours; `link_expired`).
 */
export type TokenReading = { ok: true; action: ModerationAction; commentId: string; link: SpentLink } | { ok: false; refusal: Refusal };

/** The token of `action` on the comment `commentId`, valid until `expiresAt` (epoch milliseconds). */
export function moderationToken(key: KeyObject, action: ModerationAction, commentId: string, expiresAt: number): string {
  return sign(key, [action, Math.floor(expiresAt / 1000), commentId].join(SEPARATOR));
}

/** Reads a token at `now` (epoch milliseconds). */
export function readModerationToken(key: KeyObject, token: string, now: number): TokenReading {
  const payload = verify(key, token);
  if (payload === null) return { ok: false, refusal: refusal('link_invalid') };
  const [action, expires, commentId, ...rest] = payload.split(SEPARATOR);
  const known = MODERATION_ACTIONS.find((name) => name === action);
  if (known === undefined || !commentId || rest.length > 0 || !/^\d+$/.test(expires ?? ''))
    return { ok: false, refusal: refusal('link_invalid') };
  const expiresAt = Number(expires) * 1000;
  if (expiresAt <= now) return { ok: false, refusal: refusal('link_expired') };
  return { ok: true, action: known, commentId, link: { link: payload, expiresAt: new Date(expiresAt).toISOString() } };
}

/**
 * The links a notification of a comment carries, made at `now`: approve (only
 * for a pending comment), delete, and ban its writer.
 */
export function moderationLinks(
  key: KeyObject,
  site: string,
  comment: { id: string; status: 'published' | 'pending' },
  now: number,
): ModerationLink[] {
  const actions = MODERATION_ACTIONS.filter((action) => action !== 'approve' || comment.status === 'pending');
  return actions.map((action) => ({
    action,
    url: `${site}${MODERATION_PATH_PREFIX}${moderationToken(key, action, comment.id, now + LINK_LIFETIME_MS)}`,
  }));
}
