import { z } from 'zod';
import { SLUG_PATTERN } from '../articles/source.ts';

/** The captcha token every captcha-using form sends. */
const captchaToken = z.string().max(4096).optional();

/** A comment id, a slug: bounded strings, checked against the store afterwards. */
const reference = z.string().trim().min(1).max(200);

export const commentInput = z.object({
  articleSlug: reference,
  parentId: reference.nullish(),
  body: z.string().trim().min(1).max(4000),
  captchaToken,
});

export const voteInput = z.object({
  articleSlug: reference,
  commentId: reference.nullish(),
  value: z.union([z.literal(1), z.literal(-1)], { message: 'value must be 1 (up) or -1 (down)' }),
});

export const topicRequestInput = z.object({
  requestTitle: z.string().trim().min(3).max(200),
  details: z.string().trim().max(2000).optional(),
  captchaToken,
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
  description: z.string().trim().min(1).max(4000),
  // Not a site path: dropped, and the report is still stored (docs/decisions.md, Operations and bodies).
  pagePath: z
    .unknown()
    .optional()
    .transform((value) => (isSitePath(value) ? value : null)),
  captchaToken,
});

export const viewerVotesQuery = z.object({ slug: z.string().regex(SLUG_PATTERN) });

/** The answer of the writes that store something for review. */
export function ok(id: string): { ok: true; id: string } {
  return { ok: true, id };
}

/** The ISO 4217 currencies this runtime knows: the list the submission form and the check share. */
export const CURRENCIES: readonly string[] = Intl.supportedValuesOf('currency');

/** A positive amount: a month's pay or rent, or one beer, in the submission's currency. */
const amount = z.number().positive().max(1e9);

export const citySubmissionInput = z.object({
  city: z.string().trim().min(1).max(200),
  country: z.string().regex(/^[A-Za-z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' }),
  cityId: z.string().trim().min(1).max(32).optional(),
  currency: z
    .string()
    .transform((code) => code.toUpperCase())
    .refine((code) => CURRENCIES.includes(code), { message: 'currency must be an ISO 4217 code' }),
  netPay: amount,
  rent: amount,
  beerPrice: amount,
  captchaToken,
});
