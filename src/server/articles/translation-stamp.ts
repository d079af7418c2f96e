import { createHash } from 'node:crypto';

/**
 * A translation says which English text it was translated from: its front
 * matter's `translatedFrom` holds the stamp of the English body it followed.
 * The stamp depends on the text alone (no dates, no git history), so any
 * copy of the content, a shallow clone included, gives the same statuses.
 */
export const STAMP_FIELD = 'translatedFrom';

export const STAMP_PATTERN = /^[0-9a-f]{12}$/;

/**
 * The stamp of an English body: the first 12 hex digits of its SHA-256, line
 * endings and the blank lines around it set aside, so that the build (which
 * reads the body from the content collection) and `npm run translations`
 * (which reads the file) agree.
 */
export function englishStamp(body: string): string {
  return createHash('sha256').update(body.replace(/\r\n?/g, '\n').trim()).digest('hex').slice(0, 12);
}

/** Where a translation stands against its English original. */
export type TranslationStatus = 'current' | 'outdated' | 'missing';

/**
 * Where a translation stands, given its file's stamp (`null` when there is no
 * file) and the English body's stamp. A file without a stamp was never checked
 * against the English text, so it is outdated.
 */
export function translationStatus(stamp: string | undefined | null, english: string): TranslationStatus {
  if (stamp === null) return 'missing';
  return stamp === english ? 'current' : 'outdated';
}
