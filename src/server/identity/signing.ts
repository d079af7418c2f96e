import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * What the site signs for itself (a form's timestamp, a moderation link,
 * ALTCHA's challenges and the keys that solve them, a subscriber's
 * confirmation and unsubscribe links):
 * each purpose has its own key, derived from the kept salt (HKDF-SHA-256), so
 * that every instance sharing the store signs alike and no second secret has
 * to be kept, while a value signed for one purpose is never valid for another.
 */
export type SigningPurpose =
  'form-stamp' | 'moderation-link' | 'captcha-challenge' | 'captcha-solution' | 'newsletter-confirm' | 'newsletter-unsubscribe';

/**
 * The key of one purpose, as a KeyObject: an HMAC keyed by one is set up at a
 * fraction of the cost of one keyed by the key's bytes, and a form's write
 * checks its stamp with one. Derive it once per process; it is as secret as
 * the salt.
 */
export function signingKey(salt: string, purpose: SigningPurpose): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync('sha256', salt, 'longhand-signing', purpose, 32)));
}

/** `payload.mac`, the MAC base64url: the payload must not contain a dot. */
export function sign(key: KeyObject, payload: string): string {
  if (payload.includes('.')) throw new Error('A signed payload must not contain a dot');
  return `${payload}.${mac(key, payload)}`;
}

/**
 * The payload of a value `sign` made with this key; null when it was made
 * otherwise or altered. The MAC is compared in its one canonical spelling
 * (unpadded base64url, as `sign` writes it), character for character: base64url
 * decoding skips what it cannot read and ignores a last character's spare bits,
 * so comparing decoded bytes would take several spellings of one value.
 */
export function verify(key: KeyObject, signed: string): string | null {
  const dot = signed.lastIndexOf('.');
  if (dot <= 0) return null;
  const payload = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  const expected = Buffer.from(mac(key, payload));
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null;
}

function mac(key: KeyObject, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}
