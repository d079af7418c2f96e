import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../../i18n/languages.ts';
import { FEED_LATEST, LLMS_LATEST } from '../articles/lists.ts';
import { DOCUMENT_PATHS, languageLlmsPath, rssPath } from '../http/site-paths.ts';

/** Every discovery document with what it holds, as /developers lists them. */
export const DISCOVERY_DOCUMENTS: readonly { path: string; about: string }[] = [
  {
    path: DOCUMENT_PATHS.openapi,
    about: 'OpenAPI 3.1 description of every operation, generated from the schemas the server validates with',
  },
  { path: DOCUMENT_PATHS.developers, about: 'this documentation and the change log; Markdown at /developers.md' },
  {
    path: DOCUMENT_PATHS.llms,
    about: 'the site for language models: what it is, how to read it, the latest articles, and the index of each language',
  },
  {
    path: languageLlmsPath('fr'),
    about: `the latest ${LLMS_LATEST} articles of one language, each linked to its Markdown: \`/<code>/llms.txt\` for each of the ${LANGUAGE_CODES.length} languages`,
  },
  { path: DOCUMENT_PATHS.llmsFull, about: '/llms.txt followed by every published English article' },
  { path: DOCUMENT_PATHS.agents, about: 'the guide for software agents, with YAML front matter' },
  { path: DOCUMENT_PATHS.auth, about: 'authentication: there is none, and why writes need the site’s own origin' },
  { path: DOCUMENT_PATHS.identity, about: 'the identity document: `anonymous` only' },
  { path: DOCUMENT_PATHS.protectedResource, about: 'OAuth protected-resource metadata (RFC 9728): no bearer methods, no scopes' },
  {
    path: DOCUMENT_PATHS.authorizationServer,
    about: 'OAuth authorization-server metadata (RFC 8414): no grant types; names the identity endpoint',
  },
  {
    path: DOCUMENT_PATHS.apiCatalog,
    about: 'API catalog (RFC 9727): the API (/openapi.json) and the MCP server (its card), each with /developers',
  },
  {
    path: DOCUMENT_PATHS.mcpServerCard,
    about:
      'the card (MCP Server Card extension) of the MCP server: its name, version and endpoint, `/mcp`, which a client connects to (Streamable HTTP, stateless; see “MCP server” above) for read-only tools over the articles, comments, topic requests and cities, and each article translation as a resource',
  },
  {
    path: DOCUMENT_PATHS.aiCatalog,
    about:
      'AI catalog (Agentic Resource Discovery 1.0): the MCP server, the API and the documents for agents; every page names it in `Link`',
  },
  { path: DOCUMENT_PATHS.robots, about: 'every crawler allowed, with a content signal allowing search, AI input and AI training' },
  {
    path: DOCUMENT_PATHS.sitemap,
    about:
      'every page and article translation, with hreflang alternates; past 50,000 URLs or 50 MiB, a sitemap index of `/sitemaps/1.xml`, `/sitemaps/2.xml`…',
  },
  {
    path: rssPath(DEFAULT_LANGUAGE),
    about: `the latest ${FEED_LATEST} articles as RSS 2.0, each language at \`/<code>/rss.xml\`; every article is in the archive, \`/archive\``,
  },
];
