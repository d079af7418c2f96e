import { z } from 'zod';
import { COUNTRY_PATTERN } from '../cities/api.ts';

/**
 * The query of GET /api/city-search, for the documents. The route checks
 * `country` with the same COUNTRY_PATTERN; `q` is never refused, only cut to
 * MAX_QUERY_LENGTH characters.
 */
export const citySearchQuery = z.object({
  q: z.string().optional(),
  country: z.string().regex(COUNTRY_PATTERN).optional(),
});
