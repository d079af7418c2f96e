import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchesIfNoneMatch } from '../http/etag.ts';
import { chooseEncoding, type EncodedBodies } from './encoding.ts';

/** An answer held in memory, ready to send many times: a static file or a cached render. */
export interface StoredAnswer {
  status: number;
  /** Headers as sent, except Content-Length, Content-Encoding and Vary, which depend on the request. */
  headers: Record<string, string>;
  etag: string;
  bodies: EncodedBodies;
}

/**
 * Sends a stored answer: 304 when the caller holds it already, otherwise the
 * best encoding the caller accepts; no body for HEAD. `base` holds the headers
 * every answer of the server carries (always given: a call that forgot them
 * would send a page without its security headers). Returns the body's bytes
 * sent (0 for a 304 or a HEAD), for the access log.
 */
export function sendStored(
  req: IncomingMessage,
  res: ServerResponse,
  answer: StoredAnswer,
  {
    base,
    varyAccept = false,
    extraHeaders = {},
  }: { base: Readonly<Record<string, string>>; varyAccept?: boolean; extraHeaders?: Record<string, string> },
): number {
  // Vary is the request's business: a page path answers HTML or Markdown by Accept, whichever one is stored.
  const vary: string[] = varyAccept ? ['Accept'] : [];
  if (answer.bodies.br || answer.bodies.gzip) vary.push('Accept-Encoding');
  const headers: Record<string, string | number> = { ...base, ...answer.headers, ...extraHeaders };
  if (answer.status === 200) headers['ETag'] = answer.etag;
  if (vary.length > 0) headers['Vary'] = vary.join(', ');
  if (answer.status === 200 && matchesIfNoneMatch(req.headers['if-none-match'], answer.etag)) {
    // A 304 has no body to describe; stored renders name their headers in lower case.
    res.writeHead(304, Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type')));
    res.end();
    return 0;
  }
  const encoding = chooseEncoding(req.headers['accept-encoding'], answer.bodies);
  const body = (encoding && answer.bodies[encoding]) || answer.bodies.identity;
  if (encoding) headers['Content-Encoding'] = encoding;
  headers['Content-Length'] = body.length;
  res.writeHead(answer.status, headers);
  if (req.method === 'HEAD') {
    res.end();
    return 0;
  }
  res.end(body);
  return body.length;
}
