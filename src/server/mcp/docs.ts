import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import { requestSchemaOf } from '../api/json-schema.ts';
import { typeOf } from '../api/schema-summary.ts';
import { MCP_BATCH_MOST, MCP_READER_CONCURRENCY, MCP_READER_RATE } from './admission.ts';
import { TOOLS } from './tools.ts';

/** What /developers and its Markdown twin say of the MCP server, from the tools themselves. */
export interface McpDocs {
  endpoint: string;
  card: string;
  /** Paragraphs (inline Markdown). */
  about: string[];
  tools: { name: string; title: string; description: string; parameters: string }[];
  /** A client's configuration (the `mcpServers` form most clients read), as indented JSON. */
  clientConfiguration: string;
}

/** A tool's parameters as one line: `slug` (string, required), `lang` (string). */
function parametersOf(input: (typeof TOOLS)[number]['input']): string {
  const json = requestSchemaOf(input);
  const required = new Set(json.required ?? []);
  const names = Object.entries(json.properties ?? {}).map(
    ([name, property]) => `\`${name}\` (${typeOf(property)}${required.has(name) ? ', required' : ''})`,
  );
  return names.length > 0 ? names.join(', ') : 'none';
}

export function mcpDocs(site: string): McpDocs {
  const endpoint = `${site}${DOCUMENT_PATHS.mcp}`;
  return {
    endpoint,
    card: `${site}${DOCUMENT_PATHS.mcpServerCard}`,
    about: [
      `An MCP server at \`${endpoint}\`, over Streamable HTTP and stateless: the 2026-07-28 protocol, and 2025 clients that \`initialize\` first. No key, token or session; reads spend no quota, but a client may send ${MCP_READER_RATE.requests} requests every ${MCP_READER_RATE.seconds} s with ${MCP_READER_CONCURRENCY} under way at once, and a batch holds at most ${MCP_BATCH_MOST} messages: past that it is answered 429 (503 when the server is full) with \`Retry-After\`. Every tool is read-only and answers with structured content whose JSON Schema is in the tool list (the same schemas as /openapi.json), and its JSON as text. An unknown slug is a tool result with \`isError\`, not a protocol error.`,
      `Each published article translation is also a resource, its Markdown, at the URL of its Markdown twin (\`${site}/articles/<slug>.md\`, \`${site}/fr/articles/<slug>.md\`), listed 100 a page. Writes are not offered: the API takes them from the site’s own pages only.`,
      `A browser may call it from \`${site}\` only (\`Origin\`, against DNS rebinding); a body is at most 16 KiB. Its card, for discovery before connecting: [${DOCUMENT_PATHS.mcpServerCard}](${site}${DOCUMENT_PATHS.mcpServerCard}). The endpoint answers POST only, so a browser that opens it gets a 405: connect a client by giving it the endpoint's URL, as the configuration below does (most clients read that form; others ask for the URL and “Streamable HTTP”).`,
    ],
    tools: TOOLS.map(({ name, title, description, input }) => ({ name, title, description, parameters: parametersOf(input) })),
    clientConfiguration: JSON.stringify({ mcpServers: { longhand: { type: 'http', url: endpoint } } }, null, 2),
  };
}

/** The MCP section of /developers.md. */
export function mcpMarkdown(docs: McpDocs): string {
  return [
    '## MCP server',
    ...docs.about,
    docs.tools.map(({ name, description, parameters }) => `- \`${name}\` (${parameters}): ${description}`).join('\n'),
    `A client's configuration:\n\n\`\`\`json\n${docs.clientConfiguration}\n\`\`\``,
  ].join('\n\n');
}
