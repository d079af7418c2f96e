/** Cache-Control of every kind of answer, in one place. */
export const CACHE_CONTROL = {
  articles: 'public, max-age=60',
  citySearch: 'public, max-age=300, s-maxage=86400',
  identity: 'public, max-age=3600',
  viewerVotes: 'private, no-store',
  write: 'no-store',
  /** The MCP server's answers: each one a client's own exchange, POSTed. */
  mcp: 'no-store',
  /** The MCP server's card, as the Server Card extension suggests: it changes with a release. */
  serverCard: 'public, max-age=3600',
  /**
   * A thread, and a page or feed that shows one: asked again each time (304 while the thread is unchanged),
   * so a comment shows at once; the front server keeps it by the thread's revision.
   */
  thread: 'no-cache',
  /** Pages and their Markdown twins: fresh for a minute, then revalidated by ETag. */
  page: 'public, max-age=60',
  /** Build assets carry a content hash in their name, so they never change. */
  hashedAsset: 'public, max-age=31536000, immutable',
  /** Errors are not worth keeping anywhere. */
  error: 'no-store',
} as const;

/** Cache-Control values read by sharedMaxAge at most: the site's own are the few above. */
const MAX_KEPT_RULES = 64;
const keptMaxAges = new Map<string, number>();

/** Seconds a shared cache may keep a response with this Cache-Control, or 0 when it may not; asked of every response. */
export function sharedMaxAge(cacheControl: string | null): number {
  if (!cacheControl) return 0;
  let seconds = keptMaxAges.get(cacheControl);
  if (seconds === undefined) {
    seconds = readSharedMaxAge(cacheControl);
    if (keptMaxAges.size < MAX_KEPT_RULES) keptMaxAges.set(cacheControl, seconds);
  }
  return seconds;
}

function readSharedMaxAge(cacheControl: string): number {
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((part) => part.trim());
  if (!directives.includes('public') || directives.some((part) => part === 'no-store' || part === 'private' || part === 'no-cache')) {
    return 0;
  }
  const maxAge = directives.find((part) => part.startsWith('max-age='));
  const seconds = maxAge ? Number(maxAge.slice('max-age='.length)) : 0;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}
