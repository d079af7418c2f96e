import type { APIRoute } from 'astro';
import { aiCatalog } from '../../server/discovery/ai-catalog.ts';
import { jsonDocument } from '../../server/discovery/document-response.ts';
import { DOCUMENT_PATHS } from '../../server/http/site-paths.ts';
import { mcpServerFacts } from '../../server/mcp/mcp-server.ts';
import { siteFacts } from '../../site/published.ts';

export const prerender = true;

export const GET: APIRoute = async () => {
  const facts = await siteFacts();
  return jsonDocument(DOCUMENT_PATHS.aiCatalog, aiCatalog(facts, mcpServerFacts(facts.name)));
};
