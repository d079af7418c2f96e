import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiResponse } from '../api-frame/api-response.ts';

/** Headers every response of the front server carries, given to each `writeHead` whole (see createFrontServer). */
export type BaseHeaders = Readonly<Record<string, string>>;

/** Ends a response with `body`, none for HEAD; returns the body's bytes sent. */
export function sentBody(req: IncomingMessage, res: ServerResponse, body: string | Buffer): number {
  if (req.method === 'HEAD') {
    res.end();
    return 0;
  }
  res.end(body);
  return typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}

/**
 * An API response, written as it is. Its headers go to `writeHead` as one flat
 * list (`[name, value, …]`, after `baseList`, the server's BaseHeaders as
 * such a list), which Node reads without the keyed lookups of an object built
 * per response. Neither form merges names: a name both the base and the response
 * set would be sent twice either way, and the API sets none of the base's.
 */
export function sendApiResponse(req: IncomingMessage, res: ServerResponse, response: ApiResponse, baseList: readonly string[]): number {
  // Kept as text: Node then sends the head and a text body in one write.
  const body = response.body ?? '';
  const headers = [...baseList];
  for (const [name, value] of response.headers.entries()) headers.push(name, value);
  const length = Buffer.byteLength(body);
  headers.push('content-length', String(length));
  res.writeHead(response.status, headers);
  if (req.method === 'HEAD') {
    res.end();
    return 0;
  }
  res.end(body);
  return length;
}

/** A web response, read whole and written with the base headers; returns the body's bytes sent. */
export async function sendResponse(req: IncomingMessage, res: ServerResponse, response: Response, base: BaseHeaders): Promise<number> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = { ...base };
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value;
  });
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 0) headers['set-cookie'] = setCookies;
  headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  return sentBody(req, res, body);
}

/**
 * The 413 of a route that reads a body itself (readCapped said it was too
 * large): the connection is closed with it, since the rest of the body was
 * never read.
 */
export function sendTooLarge(req: IncomingMessage, res: ServerResponse, base: BaseHeaders): Promise<number> {
  const refused = new Response('The body is too large\n', {
    status: 413,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' },
  });
  return sendResponse(req, res, refused, base);
}
