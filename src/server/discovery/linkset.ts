import { DOCUMENT_PATHS } from '../http/site-paths.ts';

/** /.well-known/api-catalog (RFC 9727): a linkset naming each API, the JSON API and the MCP server, with its description and documentation. */
export function apiCatalog(site: string) {
  return {
    linkset: [
      {
        anchor: `${site}/api`,
        'service-desc': [{ href: `${site}${DOCUMENT_PATHS.openapi}`, type: 'application/vnd.oai.openapi+json;version=3.1' }],
        'service-doc': [{ href: `${site}${DOCUMENT_PATHS.developers}`, type: 'text/html' }],
      },
      {
        anchor: `${site}${DOCUMENT_PATHS.mcp}`,
        'service-desc': [{ href: `${site}${DOCUMENT_PATHS.mcpServerCard}`, type: 'application/mcp-server-card+json' }],
        'service-doc': [{ href: `${site}${DOCUMENT_PATHS.developers}#mcp`, type: 'text/html' }],
      },
    ],
  };
}
