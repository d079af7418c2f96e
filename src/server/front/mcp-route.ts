import { readCapped, webRequest } from '../http/node-web.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import { MAX_BODY_BYTES } from '../api-frame/write-guards.ts';
import type { Route } from './route.ts';
import { sendResponse, type BaseHeaders } from './send.ts';

/** The MCP server (src/server/mcp/endpoint.ts): a web request, and who sent it as the API names a caller. */
export type McpServer = (request: Request, caller: { socketAddress: string; connection: object }) => Promise<Response>;

/**
 * Every request to `/mcp` and its server card, handed to the MCP server as a
 * web request: a body is read as the API's is, up to one byte past the
 * API's cap, and refused by the server past it; `Content-Length` is handed
 * over as sent, so a body declared larger is refused unread.
 */
export function mcpRoute(mcp: McpServer, base: BaseHeaders): Route {
  const serve: Route = async (req, res, url, served) => {
    served.kind = 'mcp';
    const body = await readCapped(req, req.headers['content-length'], MAX_BODY_BYTES);
    const response = await mcp(webRequest(req, url, body.bytes), { socketAddress: req.socket.remoteAddress ?? '', connection: req.socket });
    if (body.tooLarge) response.headers.set('Connection', 'close');
    return sendResponse(req, res, response, base);
  };
  return (req, res, url, served) =>
    url.pathname === DOCUMENT_PATHS.mcp || url.pathname === DOCUMENT_PATHS.mcpServerCard ? serve(req, res, url, served) : null;
}
