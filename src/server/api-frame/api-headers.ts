import { API_QUOTAS } from '../quotas/limits.ts';
import type { ApiResponseHeaders } from './api-response.ts';

/** The API's version: `info.version` of /openapi.json and the `API-Version` header. */
export const API_VERSION = '1.7.0';

/** Every enforced quota as a structured-field list (docs/architecture.md, "The operation registry"). */
export const RATE_LIMIT_POLICY = API_QUOTAS.map(({ name, quota, windowSeconds }) => `"${name}";q=${quota};w=${windowSeconds}`).join(', ');

/** Headers every `/api` answer carries, whatever its status. */
export function setApiHeaders(headers: Headers | ApiResponseHeaders): void {
  headers.set('API-Version', API_VERSION);
  headers.set('RateLimit-Policy', RATE_LIMIT_POLICY);
}
