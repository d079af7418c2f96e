// @ts-check
/**
 * The layers of the code, as lint rules (eslint-plugin-boundaries, run by
 * `npm run lint`): each element may import only the elements listed for it,
 * besides itself. Lower layers never reach up. docs/architecture.md ("The
 * layers") walks through them.
 */

/** @param {string} type @param {string} pattern */
const element = (type, pattern) => ({ type, pattern, partialMatch: false });

export const LAYER_ELEMENTS = [
  // Shared facts every layer reads.
  element('i18n', 'src/i18n'),
  element('settings', 'src/server/settings'),
  // Tables of an archive's size read a line at a time where they lie on disk; imports nothing.
  element('line-files', 'src/server/line-files'),
  // Logs and metrics: every layer that has something to report writes here, and it reads only the settings.
  element('observability', 'src/server/observability'),
  // Base concerns of the server, each complete in itself.
  element('http', 'src/server/http'),
  // The API's frame: a refusal and the catalogue of its codes, an API request and response, the JSON answers, the
  // write guards and the frame around every `/api` answer. Every layer that answers the API or refuses builds on it.
  element('api-frame', 'src/server/api-frame'),
  element('identity', 'src/server/identity'),
  element('quotas', 'src/server/quotas'),
  element('captcha', 'src/server/captcha'),
  element('store', 'src/server/store'),
  element('articles', 'src/server/articles'),
  element('cities', 'src/server/cities'),
  // Comments' Markdown: rendered as the safe HTML that pages, feeds and the desk show, and made from HTML written
  // elsewhere (the fediverse, other comment systems). Complete in itself: it imports no other element.
  element('comment-markdown', 'src/server/comment-markdown'),
  // What the command-line tools share: how a wrong call is told.
  element('tools', 'src/server/tools'),
  // What a request needs from the process.
  element('runtime', 'src/server/runtime'),
  // Spam defence: a form's stamp and honeypot, the rules on a comment's text, the answers a form asks for before it writes.
  element('spam', 'src/server/spam'),
  // Features built on the base.
  element('writes', 'src/server/writes'),
  element('discovery', 'src/server/discovery'),
  element('threads', 'src/server/threads'),
  element('front', 'src/server/front'),
  // Social cards: drawn on demand from a page's title.
  element('social', 'src/server/social'),
  // Comments imported from other comment systems' exports (the data tool's import --from): each format's reader,
  // and the rules that make their comments this store's.
  element('imports', 'src/server/imports'),
  // Everything the owner does: the moderation actions, the signed links a notification carries and the pages they
  // open, the desk (pages on a listener of their own), and the data tool (npm run data).
  element('owner', 'src/server/owner'),
  // The fediverse (ActivityPub, on Fedify): an actor a language, the articles as objects, the followers.
  element('federation', 'src/server/federation'),
  // Article translations as they become visible, handed once to each consumer (the newsletter, federation).
  element('appearances', 'src/server/appearances'),
  // Subscriptions by email: the consumer of appearances, the sender, `/subscribe` and the subscribers' pages.
  element('newsletter', 'src/server/newsletter'),
  // Notifications to the owner, sent from the store's outbox.
  element('notifications', 'src/server/notifications'),
  // The operation registry, the reads' handlers that belong to no other concern (the caller's own votes), and the documents.
  element('api', 'src/server/api'),
  // The MCP server: the API's reads and schemas as tools and resources.
  element('mcp', 'src/server/mcp'),
  // Running the process: health and readiness.
  element('health', 'src/server/health'),
  // The build's server entry: it wires the app, the dispatcher, the runtime and the front server together.
  element('entry', 'src/server/entry'),
  // What the build and astro.config.mjs import: the Markdown processor, the search index, the precompressed files, the city index,
  // and the content-only build (which reads the last build's content index for its articles' dates).
  element('build', 'src/build'),
  // Astro's side.
  element('site', 'src/site'),
  element('components', 'src/components'),
  element('layouts', 'src/layouts'),
  element('pages', 'src/pages'),
];

const SHARED = ['i18n', 'settings'];
const BASE = ['http', 'api-frame', 'identity', 'quotas', 'captcha', 'store', 'articles', 'cities', 'comment-markdown'];
const SERVER_BELOW_API = [...SHARED, ...BASE, 'runtime', 'spam', 'writes', 'discovery', 'threads'];

/** What each element may import, besides itself. */
const ALLOWED = {
  i18n: [],
  settings: [],
  'line-files': [],
  observability: ['settings'],
  http: SHARED,
  'api-frame': [...SHARED, 'http', 'quotas', 'observability'],
  identity: SHARED,
  quotas: SHARED,
  captcha: [...SHARED, 'api-frame'],
  store: [...SHARED, 'api-frame', 'articles', 'observability'],
  tools: [],
  articles: [...SHARED, 'line-files', 'http', 'api-frame', 'tools'],
  cities: [...SHARED, 'http', 'api-frame'],
  'comment-markdown': [],
  runtime: [...SHARED, 'identity', 'quotas', 'store', 'observability'],
  spam: [...SHARED, 'http', 'api-frame', 'identity', 'captcha', 'runtime'],
  writes: [...SHARED, ...BASE, 'runtime', 'spam', 'observability'],
  discovery: [...SHARED, 'http', 'articles', 'cities', 'quotas'],
  threads: [...SHARED, 'store'],
  front: [...SHARED, 'line-files', 'http', 'api-frame', 'articles', 'cities', 'runtime', 'observability'],
  social: SHARED,
  imports: ['identity', 'store', 'comment-markdown'],
  owner: [...SHARED, 'http', 'api-frame', 'tools', 'identity', 'store', 'articles', 'observability', 'comment-markdown', 'imports'],
  notifications: [...SHARED, 'store', 'articles', 'observability', 'owner'],
  federation: [
    ...SHARED,
    'http',
    'comment-markdown',
    'store',
    'articles',
    'social',
    'observability',
    'appearances',
    'identity',
    'quotas',
    'runtime',
    'writes',
    'threads',
    // The type of what the front server is handed (front/federation-route.ts), which the federation implements.
    'front',
  ],
  appearances: [...SHARED, 'store', 'articles', 'observability'],
  newsletter: [
    ...SHARED,
    'http',
    'api-frame',
    'identity',
    'quotas',
    'captcha',
    'spam',
    'runtime',
    'store',
    'articles',
    'observability',
    'appearances',
  ],
  api: SERVER_BELOW_API,
  mcp: [...SERVER_BELOW_API, 'api', 'observability'],
  health: [],
  entry: [
    ...SERVER_BELOW_API,
    'api',
    'mcp',
    'front',
    'health',
    'observability',
    'notifications',
    'owner',
    'federation',
    'site',
    'appearances',
    'newsletter',
  ],
  build: [...SHARED, 'http', 'front', 'cities', 'articles'],
  site: [...SERVER_BELOW_API, 'api', 'mcp', 'social'],
  components: [...SHARED, 'site', 'writes', 'cities', 'threads', 'comment-markdown'],
  layouts: [...SHARED, 'http', 'site', 'components', 'social'],
  pages: [...SERVER_BELOW_API, 'api', 'mcp', 'site', 'components', 'layouts', 'social'],
};

export const LAYER_POLICIES = Object.entries(ALLOWED).map(([type, allowed]) => ({
  from: { element: { type } },
  allow: { to: { element: { types: { anyOf: [type, ...allowed] } } } },
}));
