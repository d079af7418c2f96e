import { isLanguageCode, type LanguageCode } from '../../i18n/languages.ts';

/**
 * The paths the federation serves (Fedify's routes), besides the article
 * pages it answers when asked for ActivityPub: one actor a language, under
 * `/federation/`, outside `/api` (whose nine operations stay nine).
 */
export const FEDERATION_PATHS = {
  actor: '/federation/actors/{identifier}',
  inbox: '/federation/actors/{identifier}/inbox',
  outbox: '/federation/actors/{identifier}/outbox',
  followers: '/federation/actors/{identifier}/followers',
  sharedInbox: '/federation/inbox',
  nodeInfo: '/nodeinfo/2.1',
  // An article translation's page, its object id (`/articles/<slug>` in English, `/fr/articles/<slug>`), handed to
  // Fedify with its language always named (englishNamed).
  article: '/{lang}/articles/{slug}',
} as const;

const FEDERATION_PREFIX = '/federation/';
const WELL_KNOWN = new Set(['/.well-known/webfinger', '/.well-known/nodeinfo', FEDERATION_PATHS.nodeInfo]);
const ARTICLE_PAGE = /^(?:\/([a-z]{2,3}))?\/articles\/([a-z0-9]+(?:-[a-z0-9]+)*)$/;

/** The language and slug of an article page's path; null for any other path. */
export function articlePageOf(pathname: string): { lang: LanguageCode; slug: string } | null {
  const match = ARTICLE_PAGE.exec(pathname);
  if (!match) return null;
  const lang = match[1] ?? 'en';
  return isLanguageCode(lang) ? { lang, slug: match[2] ?? '' } : null;
}

/** The ActivityStreams media types, as Fedify answers them. */
const ACTIVITY_TYPES = ['application/activity+json', 'application/ld+json'];

/**
 * Whether `Accept` asks for an ActivityStreams document before an HTML page:
 * `application/activity+json`, or `application/ld+json` (with or without the
 * ActivityStreams profile), ranked above `text/html`. A browser's or an
 * agent's Accept never does.
 */
function asksForActivity(accept: string | undefined): boolean {
  if (!accept) return false;
  let activity = 0;
  let html = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    if (ACTIVITY_TYPES.includes(range)) activity = Math.max(activity, q);
    else if (range === 'text/html') html = Math.max(html, q);
  }
  return activity > 0 && activity > html;
}

/**
 * Whether a request is the federation's: WebFinger, NodeInfo, anything
 * under `/federation/`, and an article page read (GET or HEAD) with an
 * Accept that asks for ActivityPub. Everything else goes on as it did.
 */
export function isFederationRequest(method: string, pathname: string, accept: string | undefined): boolean {
  if (pathname.startsWith(FEDERATION_PREFIX) || WELL_KNOWN.has(pathname)) return true;
  return (method === 'GET' || method === 'HEAD') && articlePageOf(pathname) !== null && asksForActivity(accept);
}

/** An article page's request with its language always in the path (`/articles/x` → `/en/articles/x`), as Fedify's route reads it. */
export function englishNamed(request: Request): Request {
  const url = new URL(request.url);
  if (!url.pathname.startsWith('/articles/')) return request;
  url.pathname = `/en${url.pathname}`;
  return new Request(url, { method: request.method, headers: request.headers });
}
