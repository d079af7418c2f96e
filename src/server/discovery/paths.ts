import { languagePrefix, type LanguageCode } from '../../i18n/languages.ts';

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
  robots: '/robots.txt',
  sitemap: '/sitemap.xml',
} as const;

/** The RSS feed of a language: `/rss.xml` for English, `/fr/rss.xml` for French. */
export function rssPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/rss.xml`;
}
