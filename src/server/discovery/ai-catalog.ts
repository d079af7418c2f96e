import { LANGUAGE_CODES } from '../../i18n/languages.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import type { SiteFacts } from './site-facts.ts';

/** What the MCP server says of itself (src/server/mcp/mcp-server.ts), as its card and the catalog repeat it. */
export interface McpServerFacts {
  name: string;
  title: string;
  version: string;
  /** At most 100 characters, the card's limit. */
  description: string;
}

/** A `urn:air:<publisher>:<namespace>:<name>` identifier, the publisher being the site's host name. */
function identifier(site: string, name: string): string {
  return `urn:air:${new URL(site).hostname}:longhand:${name}`;
}

/**
 * The MCP server's card (the MCP Server Card extension), served at
 * `<streamable-http-url>/server-card`: a reverse-DNS name, the server's own
 * name, title and version, and its one remote. Tools are not listed: a
 * client lists them once connected, so the card cannot drift from them.
 */
export function mcpServerCard(site: string, server: McpServerFacts) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: `${new URL(site).hostname.split('.').reverse().join('.')}/${server.name}`,
    title: server.title,
    description: server.description,
    version: server.version,
    websiteUrl: site,
    remotes: [{ type: 'streamable-http', url: `${site}${DOCUMENT_PATHS.mcp}` }],
  };
}

/**
 * /.well-known/ai-catalog.json (Agentic Resource Discovery 1.0): the MCP
 * server by its card, the API by its OpenAPI description, and the guide and
 * index for agents, each with the queries it answers. The MCP server card and
 * the agents' guide have the catalog's own types; the OpenAPI description and
 * llms.txt have their registered ones, which the catalog allows with a warning.
 */
export function aiCatalog(facts: SiteFacts, server: McpServerFacts) {
  const { site, name } = facts;
  return {
    specVersion: '1.0',
    host: { displayName: name, documentationUrl: `${site}${DOCUMENT_PATHS.developers}` },
    entries: [
      {
        identifier: identifier(site, 'mcp'),
        displayName: `${name} MCP server`,
        type: 'application/mcp-server-card+json',
        url: `${site}${DOCUMENT_PATHS.mcpServerCard}`,
        description: server.description,
        version: server.version,
        capabilities: [...facts.mcpTools],
        representativeQueries: [
          `Which articles has ${name} published?`,
          `Find the ${name} article about the price of a beer, in Arabic`,
          'Search cities named Zurich',
        ],
      },
      {
        identifier: identifier(site, 'api'),
        displayName: `${name} API`,
        type: 'application/vnd.oai.openapi+json;version=3.1',
        url: `${site}${DOCUMENT_PATHS.openapi}`,
        description: `The public JSON API: articles in ${LANGUAGE_CODES.length} languages, city search, and the site’s own forms.`,
        representativeQueries: [`List the articles of ${name} in French`, 'Look up a city by name'],
      },
      {
        identifier: identifier(site, 'agents-guide'),
        displayName: `${name} for agents`,
        type: 'text/markdown; profile="urn:air:agent-skills"',
        url: `${site}${DOCUMENT_PATHS.agents}`,
        description: 'How an agent reads and acts on the site: Markdown twins, the API, the MCP server and the forms.',
        representativeQueries: [`How do I read ${name} as an agent?`, `Can an agent comment on ${name}?`],
      },
      {
        identifier: identifier(site, 'llms-txt'),
        displayName: `${name} llms.txt`,
        type: 'text/plain',
        url: `${site}${DOCUMENT_PATHS.llms}`,
        description: 'The site for language models, with the latest articles and each language’s index.',
        representativeQueries: [`What is ${name}?`, `What are the latest articles of ${name}?`],
      },
    ],
  };
}
