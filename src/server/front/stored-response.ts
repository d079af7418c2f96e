import type { ReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchesIfNoneMatch } from '../http/etag.ts';
import { chooseEncoding, type EncodedBodies, type Encoding } from './encoding.ts';
import type { StaticFile, StaticFiles } from './static-files.ts';

/** A response held in memory, ready to send many times: a cached render, a not-found page. */
export interface StoredResponse {
  status: number;
  /** Headers as sent, except Content-Length, Content-Encoding and Vary, which depend on the request. */
  headers: Record<string, string>;
  etag: string;
  bodies: EncodedBodies;
}

interface SendOptions {
  /** Headers every response of the server carries (always given: a call that forgot them would send a page without its security headers). */
  base: Readonly<Record<string, string>>;
  /** Whether the path answers HTML or Markdown by `Accept`. */
  varyAccept?: boolean;
  extraHeaders?: Record<string, string>;
}

/**
 * The headers of a response that has these encodings, or, when the caller
 * holds it already (`If-None-Match`), the 304 sent and null.
 */
function headersOrNotModified(
  req: IncomingMessage,
  res: ServerResponse,
  response: { status: number; headers: Record<string, string>; etag: string },
  encodings: Partial<Record<Encoding, unknown>>,
  { base, varyAccept = false, extraHeaders = {} }: SendOptions,
): Record<string, string | number> | null {
  // Vary is the request's business: a page path answers HTML or Markdown by Accept, whichever one is stored.
  const vary: string[] = varyAccept ? ['Accept'] : [];
  if (encodings.br || encodings.gzip) vary.push('Accept-Encoding');
  const headers: Record<string, string | number> = { ...base, ...response.headers, ...extraHeaders };
  if (response.status === 200) headers['ETag'] = response.etag;
  if (vary.length > 0) headers['Vary'] = vary.join(', ');
  if (response.status === 200 && matchesIfNoneMatch(req.headers['if-none-match'], response.etag)) {
    // A 304 has no body to describe; stored renders name their headers in lower case.
    res.writeHead(304, Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type')));
    res.end();
    return null;
  }
  return headers;
}

/** A body held whole, or one read from disk as it is sent. */
type Body = Buffer | { stream: ReadStream; size: number };

/**
 * Sends a body in one encoding, none for HEAD; returns the body's bytes
 * sent, for the access log. A stream that fails half-way cuts the
 * connection: the length promised more.
 */
function sendBody(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body: Body,
  encoding: Encoding | null,
): number {
  const whole = Buffer.isBuffer(body);
  if (encoding) headers['Content-Encoding'] = encoding;
  headers['Content-Length'] = whole ? body.length : body.size;
  res.writeHead(status, headers);
  if (req.method === 'HEAD') {
    if (!whole) body.stream.destroy();
    res.end();
    return 0;
  }
  if (whole) {
    res.end(body);
    return body.length;
  }
  const { stream, size } = body;
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
  return size;
}

/**
 * Sends a stored response: 304 when the caller holds it already, otherwise the
 * best encoding the caller accepts; no body for HEAD. Returns the body's
 * bytes sent (0 for a 304 or a HEAD), for the access log.
 */
export function sendStored(req: IncomingMessage, res: ServerResponse, response: StoredResponse, options: SendOptions): number {
  const headers = headersOrNotModified(req, res, response, response.bodies, options);
  if (!headers) return 0;
  const encoding = chooseEncoding(req.headers['accept-encoding'], response.bodies);
  return sendBody(req, res, response.status, headers, (encoding && response.bodies[encoding]) || response.bodies.identity, encoding);
}

/**
 * Sends a built file as sendStored sends a stored response, its body read
 * through `files` (from memory or disk), and returns the body's bytes sent.
 * Answers 'changed' or 'gone', having sent nothing, when the body on disk is
 * no longer the one the manifest describes, or no longer there.
 */
export async function sendStatic(
  req: IncomingMessage,
  res: ServerResponse,
  files: StaticFiles,
  file: StaticFile,
  options: SendOptions,
): Promise<number | 'changed' | 'gone'> {
  const response = { status: 200, headers: { 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl }, etag: file.etag };
  const headers = headersOrNotModified(req, res, response, file.bodies, options);
  if (!headers) return 0;
  const encoding = chooseEncoding(req.headers['accept-encoding'], file.bodies);
  const read = await files.read(file, encoding);
  if ('changed' in read) return 'changed';
  if ('gone' in read) return 'gone';
  return sendBody(req, res, 200, headers, 'body' in read ? read.body : read, encoding);
}
