import { createMcpHandler } from '@modelcontextprotocol/server';
import { mcpServerCard } from '../discovery/ai-catalog.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import { MAX_BODY_BYTES } from '../http/write-guards.ts';
import { log } from '../observability/log.ts';
import type { ApiServices } from '../api/definition.ts';
import { longhandMcpServer, mcpServerFacts } from './server.ts';

/** Answers one HTTP request to `/mcp`. */
export type McpEndpoint = (request: Request) => Promise<Response>;

/** A JSON-RPC error with no id, as the transport answers what it refuses before reading a message. */
function refused(status: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status });
}

/**
 * The server's card: public and read-only, so any site may read it (CORS,
 * as the Server Card extension asks), and kept an hour.
 */
function serverCard(method: string, card: string): Response {
  if (method !== 'GET' && method !== 'HEAD') {
    return Response.json({ error: 'Method not allowed; use GET' }, { status: 405, headers: { Allow: 'GET, HEAD' } });
  }
  return new Response(method === 'HEAD' ? null : card, {
    headers: {
      'Content-Type': 'application/mcp-server-card+json',
      'Cache-Control': CACHE_CONTROL.serverCard,
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET',
      'Access-Control-Allow-Headers': 'Content-Type, If-None-Match',
      'Access-Control-Expose-Headers': 'ETag',
    },
  });
}

/**
 * The MCP server over Streamable HTTP, stateless (docs/architecture.md,
 * "Agents"): every POST is answered on its own by a fresh server, on the
 * 2026-07-28 revision, or by the SDK's stateless fallback for 2025-era
 * clients. The tools send nothing before their result, so every response is
 * whole (one JSON body; for 2025-era clients one SSE event, then the end)
 * and no request holds a connection past it; a client's list subscription
 * is refused, since nothing the server lists changes while a client holds it.
 * `/mcp/server-card` answers the server's card.
 *
 * - `Origin`, when a browser sends one, must be the site's own, as the MCP
 *   specification asks of every server against DNS rebinding: anything else
 *   is a 403. Clients that are not browsers send none.
 * - A body is at most MAX_BODY_BYTES, the API's own limit (413); the front
 *   server reads no more than that, and its timeouts are the API's.
 * - No answer may be kept by a cache.
 */
export async function mcpEndpoint(services: ApiServices): Promise<McpEndpoint> {
  const facts = mcpServerFacts(await services.name());
  const handler = createMcpHandler(() => longhandMcpServer(services, facts), {
    maxRequestBodySize: MAX_BODY_BYTES,
    maxSubscriptions: 0,
    onerror: (error) => {
      log().debug(`[mcp] ${error.message}`);
    },
  });
  const card = JSON.stringify(mcpServerCard(services.site, facts));
  return async (request) => {
    if (new URL(request.url).pathname === DOCUMENT_PATHS.mcpServerCard) return serverCard(request.method, card);
    const origin = request.headers.get('Origin');
    const response =
      origin === null || origin === services.site
        ? await handler.fetch(request)
        : refused(403, `Origin ${origin} is not allowed: browsers may call this server from ${services.site} only`);
    const headers = new Headers(response.headers);
    headers.set('Cache-Control', CACHE_CONTROL.mcp);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
