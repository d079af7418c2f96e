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
   * What shows the store as it is (a thread, a page or feed that shows one, the topic requests): asked again each
   * time (304 while unchanged), so a comment shows at once; the front server keeps it by its revision.
   */
  byRevision: 'no-cache',
  /** Pages and their Markdown twins: fresh for a minute, then revalidated by ETag. */
  page: 'public, max-age=60',
  /** Build assets carry a content hash in their name, so they never change. */
  hashedAsset: 'public, max-age=31536000, immutable',
  /** Errors are not worth keeping anywhere. */
  error: 'no-store',
} as const;

/** The headers by which an on-demand render names the store topic it shows and the revision it shows it at. */
export const REVISION_TOPIC_HEADER = 'x-revision-topic';
export const REVISION_HEADER = 'x-revision';

/**
 * Marks a render that shows the store's `topic` at `revision`: kept by the
 * front server until the store's revision of that topic changes, asked again
 * by browsers each time.
 */
export function keptByRevision(headers: Headers, topic: string, revision: string): void {
  headers.set('Cache-Control', CACHE_CONTROL.byRevision);
  headers.set(REVISION_TOPIC_HEADER, topic);
  headers.set(REVISION_HEADER, revision);
}

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
