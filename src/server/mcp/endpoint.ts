import { createMcpHandler } from '@modelcontextprotocol/server';
import { mcpServerCard } from '../discovery/ai-catalog.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import { MAX_BODY_BYTES } from '../api-frame/write-guards.ts';
import { log } from '../observability/log.ts';
import { identify } from '../identity/caller.ts';
import type { ApiServices } from '../api/definition.ts';
import { refusal, type Refusal } from '../api-frame/refusals.ts';
import { batchLength, MCP_BATCH_MOST, McpAdmission } from './admission.ts';
import { longhandMcpServer, mcpServerFacts } from './mcp-server.ts';

/** Who sent a request: the socket's peer and its connection, from which the reader is known as the API knows it. */
export interface McpCaller {
  socketAddress: string;
  connection?: object;
}

/** Answers one HTTP request to `/mcp`. */
export type McpEndpoint = (request: Request, caller: McpCaller) => Promise<Response>;

/** JSON-RPC's code for a message that is not a valid request. */
const INVALID_REQUEST = -32600;

/** A refusal as a JSON-RPC error with no id, as the transport answers what it refuses before reading a message. */
function refused({ status, message, headers = {} }: Refusal, code = -32000): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
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
 * - A batch holds at most MCP_BATCH_MOST messages (400), and a request is
 *   taken only within its reader's rate and while its reader and the
 *   instance have a place (admission.ts; 429 or 503 with `Retry-After`). A
 *   place is held until the answer is whole, so that what an agent has under
 *   way is what it costs.
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
  const admission = new McpAdmission();

  async function answer(request: Request, caller: McpCaller): Promise<Response> {
    const origin = request.headers.get('Origin');
    if (origin !== null && origin !== services.site)
      return refused(refusal('cross_origin', `Origin ${origin} is not allowed: browsers may call this server from ${services.site} only`));
    const { hash } = identify({ request: { header: (name) => request.headers.get(name) }, ...caller }, await services.runtime());
    const admitted = await admission.enter(hash);
    if ('refused' in admitted) return refused(admitted.refused);
    try {
      const body = request.method === 'POST' ? await request.text() : null;
      if (body !== null && (batchLength(body) ?? 0) > MCP_BATCH_MOST)
        return refused(
          refusal('invalid_input', `A batch holds at most ${MCP_BATCH_MOST} messages; send the rest in requests of their own`),
          INVALID_REQUEST,
        );
      const response = await handler.fetch(body === null ? request : new Request(request, { body }));
      // Read whole while the place is held: a 2025-era answer's stream is written as its tools run.
      const whole = await response.arrayBuffer();
      const { status, statusText, headers } = response;
      return new Response(response.body === null ? null : whole, { status, statusText, headers });
    } finally {
      admitted.leave();
    }
  }

  return async (request, caller) => {
    if (new URL(request.url).pathname === DOCUMENT_PATHS.mcpServerCard) return serverCard(request.method, card);
    const response = await answer(request, caller);
    const headers = new Headers(response.headers);
    headers.set('Cache-Control', CACHE_CONTROL.mcp);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
