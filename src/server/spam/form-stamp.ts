import type { KeyObject } from 'node:crypto';
import { sign, verify } from '../identity/signing.ts';

/**
 * A form's stamp: the moment the site gave it to a page showing the form
 * (GET /form-stamp), signed with the `form-stamp` key, as
 * `<milliseconds in base 36>.<mac>`. It proves when the form was shown, not
 * who showed it: every reader may hold several, and none is spent by a write.
 */

/** A stamp older than this counts as none: a page left open overnight is not refused for it (docs/architecture.md, "Readers, quotas and spam defence"). */
export const FORM_STAMP_LIFETIME_SECONDS = 86_400;

/** A stamp made now. */
export function issueFormStamp(key: KeyObject, nowMs: number): string {
  return sign(key, nowMs.toString(36));
}

/** Seconds since the stamp was made (negative when made ahead of this clock); null when it is not one this site signed. */
export function formStampAge(key: KeyObject, stamp: string, nowMs: number): number | null {
  const payload = verify(key, stamp);
  if (payload === null || !/^[0-9a-z]{1,11}$/.test(payload)) return null;
  return (nowMs - parseInt(payload, 36)) / 1000;
}
