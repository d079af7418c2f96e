/**
 * The write quotas (docs/architecture.md, "Readers, quotas and spam defence"): at most `quota` writes from one reader in
 * any span of `windowSeconds`. Every header, document and limiter reads them here.
 */
export const QUOTAS = [
  { name: 'comments', quota: 100, windowSeconds: 86_400 },
  { name: 'topic-requests', quota: 5, windowSeconds: 86_400 },
  { name: 'city-submissions', quota: 3, windowSeconds: 86_400 },
  { name: 'bug-reports', quota: 5, windowSeconds: 86_400 },
  { name: 'votes', quota: 60, windowSeconds: 60 },
  // Not an API write: POST /subscribe (src/server/newsletter/subscribe.ts), outside the API's RateLimit-Policy.
  { name: 'subscriptions', quota: 5, windowSeconds: 86_400 },
] as const;

/** The quotas of the API's writes, which its RateLimit-Policy names. */
export const API_QUOTAS = QUOTAS.filter((quota) => quota.name !== 'subscriptions');

export type QuotaName = (typeof QUOTAS)[number]['name'];

/** The burst ban (docs/owner.md, "Spam defence"): the `comments`-th comment within `windowSeconds` bans the reader for `banSeconds`. */
export const COMMENT_BURST_BAN = { comments: 100, windowSeconds: 300, banSeconds: 48 * 3600 } as const;

export function quotaOf(name: QuotaName): (typeof QUOTAS)[number] {
  return QUOTAS.find((quota) => quota.name === name) ?? QUOTAS[0];
}
