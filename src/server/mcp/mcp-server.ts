import { randomUUID } from 'node:crypto';
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { LANGUAGE_CODES } from '../../i18n/languages.ts';
import type { McpServerFacts } from '../discovery/ai-catalog.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import { log } from '../observability/log.ts';
import type { ApiServices } from '../api/definition.ts';
import { MCP_BATCH_MOST, MCP_READER_CONCURRENCY, MCP_READER_RATE } from './admission.ts';
import { serveArticleResources } from './resources.ts';
import { TOOLS, type ToolOutcome } from './tools.ts';

/**
 * The server as clients and its card show it: named for the software,
 * titled with the publication's name. The version is the tools' contract,
 * raised as the API's is.
 */
export function mcpServerFacts(publication: string): McpServerFacts {
  return {
    name: 'longhand',
    title: publication,
    version: '1.0.0',
    description: 'Read-only tools over a multilingual publication: articles, comments, topic requests, cities.',
  };
}

/** What the server tells a client about itself at initialization. */
function instructions(site: string, publication: string): string {
  return [
    `${publication} (${site}) is a personal publication: essays in English, translated into up to ${LANGUAGE_CODES.length - 1} more languages, and a city index.`,
    'This server is read-only: list, read and search the articles, read their comment threads and the topic requests, search the cities. Each article translation is also a resource, its Markdown.',
    `Writes (comments, votes, topic requests, bug reports, city submissions) are not offered here: the site accepts them from its own pages only, so an agent writes by helping a person use the forms on ${site}. See ${site}${DOCUMENT_PATHS.agents}.`,
    `Nothing here needs a key, and reads count against no quota. A client may send ${MCP_READER_RATE.requests} requests every ${MCP_READER_RATE.seconds} s, with ${MCP_READER_CONCURRENCY} under way at once, and a batch holds at most ${MCP_BATCH_MOST} messages. Past that the answer is HTTP 429 (503 when the server is full) with Retry-After: wait that long before the next request.`,
  ].join('\n');
}

/** A tool's outcome as an MCP result: the structured content with its JSON as text, or an `isError` result. */
function toolResult(outcome: ToolOutcome<unknown>): CallToolResult {
  if ('refused' in outcome) return { content: [{ type: 'text', text: outcome.refused.message }], isError: true };
  return { content: [{ type: 'text', text: JSON.stringify(outcome.ok) }], structuredContent: outcome.ok };
}

/** A failure of the site itself (its store unreachable): logged with an id, answered with that id and nothing of its cause. */
function failed(error: unknown): CallToolResult {
  const requestId = randomUUID();
  log().error(`[mcp] tool call ${requestId} failed`, { requestId }, error);
  return { content: [{ type: 'text', text: `The site could not answer (request ${requestId})` }], isError: true };
}

/**
 * A server for one request (the transport is stateless, so each request gets
 * a fresh one; it holds nothing but what it registers): the tools, the
 * article resources, and no list that changes while a client holds it.
 */
export function longhandMcpServer(services: ApiServices, facts: McpServerFacts): McpServer {
  const server = new McpServer(
    { name: facts.name, title: facts.title, version: facts.version },
    {
      instructions: instructions(services.site, facts.title),
      capabilities: { tools: { listChanged: false } },
    },
  );
  for (const definition of TOOLS) {
    const { name, title, description, input, output } = definition;
    server.registerTool(
      name,
      {
        title,
        description,
        inputSchema: input,
        outputSchema: output,
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      (args) => definition.run(args, services).then(toolResult, failed),
    );
  }
  serveArticleResources(server, services);
  return server;
}
