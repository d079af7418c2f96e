import type { KeyObject } from 'node:crypto';
import { FORM_STAMP_LIFETIME_SECONDS, formStampAge } from './form-stamp.ts';
import { refusal, type Refusal } from '../api-frame/refusals.ts';

/**
 * What the site's own forms send with a write, both optional in the API: the
 * form's stamp, and what its honeypot field holds (nothing, for a person).
 */
export interface FormFields {
  formStamp?: string | undefined;
  honeypot?: string | undefined;
}

/**
 * A write's verdict by its form fields: `clean` (sent by a form shown long
 * enough ago, honeypot empty), `unsigned` (no stamp, or one past its
 * lifetime: an API client, or a page left open a day), or `spam` (the
 * honeypot filled, a stamp this site did not sign, or a write sent sooner
 * than `minSeconds` after its form was shown).
 */
export type FormVerdict = { verdict: 'clean' } | { verdict: 'unsigned' } | { verdict: 'spam'; refusal: Refusal };

export function formVerdict({ formStamp, honeypot }: FormFields, key: KeyObject, minSeconds: number, nowMs: number): FormVerdict {
  if (honeypot !== undefined && honeypot.trim() !== '') return { verdict: 'spam', refusal: refusal('honeypot') };
  if (formStamp === undefined) return { verdict: 'unsigned' };
  const age = formStampAge(key, formStamp, nowMs);
  if (age === null) return { verdict: 'spam', refusal: refusal('form_stamp') };
  if (age < minSeconds) {
    const message = `Sent ${Math.max(0, age).toFixed(1)} s after the form was shown: wait at least ${minSeconds} s, as a person writing would`;
    return { verdict: 'spam', refusal: refusal('too_fast', message) };
  }
  return age > FORM_STAMP_LIFETIME_SECONDS ? { verdict: 'unsigned' } : { verdict: 'clean' };
}
