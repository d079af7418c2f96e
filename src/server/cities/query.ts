import { z } from 'zod';
import { languageParameter } from '../http/language-parameter.ts';

/**
 * The query of GET /api/city-search: it validates the request and documents
 * it. `q` is never refused, only cut (search.ts); `country` is ISO 3166-1
 * alpha-2 in any case, and anything else answers 400; `lang` names the
 * countries, English when absent or unknown.
 */
export const citySearchQuery = z.object({
  q: z.string().optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, { message: 'country must be a two-letter ISO 3166-1 alpha-2 code, such as FR' })
    .optional(),
  lang: languageParameter,
});
