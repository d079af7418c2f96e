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
  // Not API writes, so outside the API's RateLimit-Policy: POST /subscribe (src/server/newsletter/subscribe.ts), and
  // the activities a fediverse instance, and one of its actors, POST to the inboxes (src/server/federation/inbox-gate.ts),
  // and the Webmentions a source's host, and one reader, send (src/server/federation/webmention/receive.ts).
  { name: 'subscriptions', quota: 5, windowSeconds: 86_400 },
  { name: 'inbox-instance', quota: 600, windowSeconds: 60 },
  { name: 'inbox-actor', quota: 60, windowSeconds: 60 },
  { name: 'webmention-source', quota: 30, windowSeconds: 3600 },
  { name: 'webmention-reader', quota: 60, windowSeconds: 3600 },
] as const;

const NOT_API: readonly string[] = ['subscriptions', 'inbox-instance', 'inbox-actor', 'webmention-source', 'webmention-reader'];

/** The quotas of the API's writes, which its RateLimit-Policy names. */
export const API_QUOTAS = QUOTAS.filter((quota) => !NOT_API.includes(quota.name));

export type QuotaName = (typeof QUOTAS)[number]['name'];

/** The burst ban (docs/owner.md, "Spam defence"): the `comments`-th comment within `windowSeconds` bans the reader for `banSeconds`. */
export const COMMENT_BURST_BAN = { comments: 100, windowSeconds: 300, banSeconds: 48 * 3600 } as const;

export function quotaOf(name: QuotaName): (typeof QUOTAS)[number] {
  return QUOTAS.find((quota) => quota.name === name) ?? QUOTAS[0];
}
