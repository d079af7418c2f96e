import { LANGUAGE_CODES, languagePrefix, type LanguageCode } from '../../i18n/languages.ts';

/**
 * Every public path of the site, in one low-level module that the HTTP layer,
 * the documents and the pages all read.
 */

/**
 * The path without its trailing slashes. A loop, not `/\/+$/`: a regex engine
 * tries that pattern from every slash of a run, which costs the square of
 * the run's length on a path a request chose.
 */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end -= 1;
  return path.slice(0, end);
}

const SLASH = 0x2f;

/**
 * What a form of the site asks for when it is shown, outside `/api` (the
 * API keeps its nine operations), answered by the front server and never
 * kept: the form's stamp, and ALTCHA's challenge where it is the captcha.
 */
export const FORM_PATHS = { stamp: '/form-stamp', captchaChallenge: '/captcha/challenge' } as const;

/**
 * A page of an article's thread, as an HTML fragment (`/threads/<slug>`,
 * `/fr/threads/<slug>`) or its Markdown twin (`.md`), and the one query
 * parameter both read. Slugs have no dot (SLUG_PATTERN).
 */
const THREAD_PAGE = /^(?:\/[a-z]{2,3})?\/threads\/[^/.]+(\.md)?$/;
export const THREAD_PAGE_PARAMETER = 'page';

/**
 * The query parameters a page rendered on demand reads, sorted. The front server keys
 * its kept renders by these alone and hands the page no other, so a query
 * string made up by a crawler neither renders again nor pushes a render out.
 */
export function pageQueryParameters(pathname: string): readonly string[] {
  return THREAD_PAGE.test(pathname) ? [THREAD_PAGE_PARAMETER] : [];
}

/** Whether a path is an article's thread fragment, as opposed to a page. */
export function isThreadFragment(pathname: string): boolean {
  const match = THREAD_PAGE.exec(pathname);
  return match !== null && match[1] === undefined;
}

/** An article page, `/articles/<slug>` or `/fr/articles/<slug>`, a trailing slash allowed: its language prefix and slug. */
const ARTICLE_PAGE = /^((?:\/[a-z]{2,3})?)\/articles\/([^/.]+)\/?$/;

/**
 * Where an article page's built HTML takes its thread's first page: the
 * front server puts the fragment's HTML in place of this comment.
 */
export const THREAD_SLOT = '<!--longhand:thread-->';

/** The thread fragment whose first page an article page carries (`/fr/articles/x` → `/fr/threads/x`); null for any other path. */
export function threadFragmentOfPage(pathname: string): string | null {
  const match = ARTICLE_PAGE.exec(pathname);
  return match ? `${match[1] ?? ''}/threads/${match[2] ?? ''}` : null;
}

/** The Markdown twin of an article's thread: `/threads/<slug>.md`, `/fr/threads/<slug>.md`. */
export function threadTwinPath(slug: string, lang: LanguageCode): string {
  return `${languagePrefix(lang)}/threads/${slug}.md`;
}

/** The Atom feed of an article's newest comments: `/threads/<slug>.atom`, `/fr/threads/<slug>.atom`. */
export function threadFeedPath(slug: string, lang: LanguageCode): string {
  return `${languagePrefix(lang)}/threads/${slug}.atom`;
}

/** The Atom feed of the whole site's newest comments: `/comments.atom`, `/fr/comments.atom`. */
export function commentsFeedPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/comments.atom`;
}

/** Where each discovery document is served. */
export const DOCUMENT_PATHS = {
  openapi: '/openapi.json',
  developers: '/developers',
  developersMarkdown: '/developers.md',
  llms: '/llms.txt',
  llmsFull: '/llms-full.txt',
  agents: '/agents.md',
  auth: '/auth.md',
  identity: '/api/agent/identity',
  protectedResource: '/.well-known/oauth-protected-resource',
  authorizationServer: '/.well-known/oauth-authorization-server',
  apiCatalog: '/.well-known/api-catalog',
  mcp: '/mcp',
  /** The MCP server's card, at `<streamable-http-url>/server-card` as the Server Card extension reserves. */
  mcpServerCard: '/mcp/server-card',
  aiCatalog: '/.well-known/ai-catalog.json',
  robots: '/robots.txt',
  sitemap: '/sitemap.xml',
} as const;

/**
 * Where the owner's one-click moderation links lead (src/server/owner/moderation-links.ts):
 * `/moderation/<signed token>`, outside `/api`, never indexed nor kept by a shared cache.
 */
export const MODERATION_PATH_PREFIX = '/moderation/';

/**
 * The newsletter's addresses, outside `/api` (contract §9): the form's POST,
 * the page it leads to, and the prefixes of a subscriber's signed links
 * (`<prefix><signed token>`), never indexed nor kept by a shared cache.
 */
export const NEWSLETTER_PATHS = {
  subscribe: '/subscribe',
  asked: '/newsletter/asked',
  confirm: '/newsletter/confirm/',
  unsubscribe: '/newsletter/unsubscribe/',
} as const;

/**
 * One of the sitemaps `/sitemap.xml` lists once it has become a sitemap index
 * (src/server/discovery/sitemap.ts): `/sitemaps/1.xml`, `/sitemaps/2.xml`…
 */
export function sitemapPartPath(number: number): string {
  return `/sitemaps/${number}.xml`;
}

/** The llms.txt of one language's articles: `/fr/llms.txt`, `/en/llms.txt` for English (the site's own is /llms.txt). */
export function languageLlmsPath(lang: LanguageCode): string {
  return `/${lang}/llms.txt`;
}

/**
 * The `Link` header of a page (RFC 8288): its Markdown twin, the site's
 * llms.txt, and its AI catalog, so an agent needs to guess none of them.
 */
export function pageLinkHeader(twin: string): string {
  return [
    `<${twin}>; rel="alternate"; type="text/markdown"`,
    `<${DOCUMENT_PATHS.llms}>; rel="describedby"; type="text/plain"`,
    `<${DOCUMENT_PATHS.aiCatalog}>; rel="ai-catalog"; type="application/ai-catalog+json"`,
  ].join(', ');
}

/** The RSS feed of a language: `/rss.xml` for English, `/fr/rss.xml` for French. */
export function rssPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/rss.xml`;
}

/** The home page of a language: `/` for English, `/fr/` for French. */
export function homePath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/`;
}

/**
 * A page of a language's archive, every article newest first: page 1 is
 * `/archive` (`/fr/archive`), page n after it `/archive/n`.
 */
export function archivePath(lang: LanguageCode, page = 1): string {
  return page === 1 ? `${languagePrefix(lang)}/archive` : `${languagePrefix(lang)}/archive/${page}`;
}

export function projectsPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/projects`;
}

/** One page in each language, for hreflang links and the language switcher. */
export interface Alternate {
  lang: LanguageCode;
  path: string;
}

export function alternatesOf(pathFor: (lang: LanguageCode) => string, languages: readonly LanguageCode[] = LANGUAGE_CODES): Alternate[] {
  return languages.map((lang) => ({ lang, path: pathFor(lang) }));
}

/** Topic requests and the form to send one: `/answers`, `/fr/answers`. */
export function answersPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/answers`;
}

/** The site search, over the articles of the page's language. */
export function searchPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/search`;
}

export function citiesPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/cities`;
}

/** The Webmention endpoint (src/server/federation/webmention/), outside `/api`: pages advertise it while FEDERATION is on. */
export const WEBMENTION_PATH = '/webmention';
