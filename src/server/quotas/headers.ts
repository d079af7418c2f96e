import { quotaOf, type QuotaName } from './limits.ts';

/** The RateLimit headers of a write that spent (or was refused) a quota (docs/architecture.md, "Readers, quotas and spam defence"). */
export function quotaHeaders(name: QuotaName, remaining: number): Record<string, string> {
  const { quota, windowSeconds } = quotaOf(name);
  return {
    RateLimit: `"${name}";r=${remaining};t=${windowSeconds}`,
    'RateLimit-Limit': String(quota),
    'RateLimit-Remaining': String(remaining),
    // Windows slide: the window's length is the worst case before the quota is whole again.
    'RateLimit-Reset': String(windowSeconds),
  };
}

export function refusedHeaders(name: QuotaName, retryAfterSeconds: number): Record<string, string> {
  return { ...quotaHeaders(name, 0), 'Retry-After': String(retryAfterSeconds) };
}
