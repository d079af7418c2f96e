/**
 * A subscriber's signed links: `<site>/newsletter/confirm/<token>` and
 * `<site>/newsletter/unsubscribe/<token>`, the token being the subscriber's
 * id signed with the key of its purpose (src/server/identity/signing.ts), so
 * that a confirmation link never unsubscribes nor the other way round. They
 * do not expire: a pending subscription is forgotten after 7 days, and its
 * link then finds no one; an unsubscribe link must work as long as the
 * emails that carry it are read.
 */
import type { KeyObject } from 'node:crypto';
import { NEWSLETTER_PATHS } from '../http/site-paths.ts';
import { sign, verify } from '../identity/signing.ts';

export type LinkAction = 'confirm' | 'unsubscribe';

/** The two keys, by action. */
export type LinkKeys = Record<LinkAction, KeyObject>;

/** The signed link of `action` for the subscriber `subscriberId`. */
export function subscriberLink(keys: LinkKeys, site: string, action: LinkAction, subscriberId: string): string {
  return `${site}${NEWSLETTER_PATHS[action]}${sign(keys[action], subscriberId)}`;
}

/** The subscriber id a token of `action` names; null when the token is altered or not this site's. */
export function readSubscriberToken(keys: LinkKeys, action: LinkAction, token: string): string | null {
  return verify(keys[action], token);
}
