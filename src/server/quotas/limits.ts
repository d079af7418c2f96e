/**
 * The write quotas (contract §4–§5): at most `quota` writes from one reader in
 * any span of `windowSeconds`. Every header, document and limiter reads them here.
 */
export const QUOTAS = [
  { name: 'comments', quota: 100, windowSeconds: 86_400 },
  { name: 'topic-requests', quota: 5, windowSeconds: 86_400 },
  { name: 'city-submissions', quota: 3, windowSeconds: 86_400 },
  { name: 'bug-reports', quota: 5, windowSeconds: 86_400 },
  { name: 'votes', quota: 60, windowSeconds: 60 },
] as const;

export type QuotaName = (typeof QUOTAS)[number]['name'];
