import { z } from 'zod';
import { castVote } from '../store/shapes.ts';

/**
 * What every form of the site sends besides its own fields: the captcha's
 * token, the form's stamp and its honeypot, each optional
 * (src/server/spam/form-verdict.ts).
 */
const formFields = {
  captchaToken: z.string().max(4096).optional(),
  formStamp: z.string().max(200).optional(),
  honeypot: z.string().max(1000).optional(),
};

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTER = /[\x00-\x08\x0b-\x1f]/;
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/**
 * Text a reader writes, under one rule whichever store keeps it: line ends
 * folded to `\n`, trimmed, `min` to `max` characters, well-formed Unicode,
 * no C0 control character but tab and newline (PostgreSQL refuses NUL; the
 * others draw nothing or drive the owner's terminal), and something to see
 * once format characters (zero-width, bidi controls) are set aside.
 */
function readerText(min: number, max: number) {
  return z
    .string()
    .overwrite((text) => text.replace(/\r\n?/g, '\n'))
    .trim()
    .min(min)
    .max(max)
    .refine((text) => !CONTROL_CHARACTER.test(text), { message: 'must not contain control characters other than newline and tab' })
    .refine((text) => text.isWellFormed(), { message: 'must be well-formed Unicode (no lone surrogate)' })
    .refine((text) => text.length === 0 || text.replace(FORMAT_CHARACTERS, '').trim().length > 0, {
      message: 'must contain something visible, not only zero-width or direction characters',
    });
}

/** A comment id, a slug: bounded strings, checked against the store afterwards. */
const reference = readerText(1, 200);

/** A comment's longest text, in UTF-16 units: the form's `maxlength`, and the most of a fediverse reply kept. */
export const COMMENT_CHARS = 4000;

export const commentInput = z.object({
  articleSlug: reference,
  parentId: reference.nullish(),
  body: readerText(1, COMMENT_CHARS),
  ...formFields,
});

export const voteInput = z.object({
  articleSlug: reference,
  commentId: reference.nullish(),
  value: z.union(castVote.options, { message: 'value must be 1 (up) or -1 (down)' }),
});

export const topicRequestInput = z.object({
  requestTitle: readerText(3, 200),
  details: readerText(0, 2000).optional(),
  ...formFields,
});

/**
 * A site path: one leading slash (not two), no scheme or host, no spaces,
 * backslashes or control characters. Browsers read `/\host` as another host.
 */
export function isSitePath(value: unknown): value is string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return typeof value === 'string' && value.length <= 2000 && /^\/(?![/\\])[^\s\\\x00-\x1f\x7f]*$/.test(value);
}

export const bugReportInput = z.object({
  description: readerText(1, 4000),
  // Not a site path: dropped, and the report is still stored, as createBugReport documents.
  pagePath: z
    .unknown()
    .optional()
    .transform((value) => (isSitePath(value) ? value : null)),
  ...formFields,
});

/** The response of the writes that store something for review. */
export function ok(id: string): { ok: true; id: string } {
  return { ok: true, id };
}

/** The ISO 4217 currencies this runtime knows: the list the submission form and the check share. */
export const CURRENCIES: readonly string[] = Intl.supportedValuesOf('currency');

/** A positive amount: a month's pay or rent, or one beer, in the submission's currency. */
const amount = z.number().positive().max(1e9);

export const citySubmissionInput = z.object({
  city: readerText(1, 200),
  country: z.string().regex(/^[A-Za-z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' }),
  cityId: readerText(1, 32).optional(),
  currency: z
    .string()
    .transform((code) => code.toUpperCase())
    .refine((code) => CURRENCIES.includes(code), { message: 'currency must be an ISO 4217 code' }),
  netPay: amount,
  rent: amount,
  beerPrice: amount,
  ...formFields,
});
