import assert from 'node:assert/strict';
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the test names the shape it expects
  json<T = Record<string, unknown>>(): T;
}

/**
 * One HTTP request exactly as given: no header added, nothing decompressed,
 * so tests see the bytes a client gets. `localAddress` sends it from that
 * loopback address (Linux routes all of 127.0.0.0/8 to lo): a reader of its
 * own as a proxy in front sees it.
 */
export function request(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
    agent,
    localAddress,
  }: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent; localAddress?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A body always gets its length: without it, Node frames no body for DELETE or OPTIONS.
    const framed = body === undefined ? headers : { 'Content-Length': String(Buffer.byteLength(body)), ...headers };
    const req = httpRequest(url, { method, headers: framed, ...(agent && { agent }), ...(localAddress && { localAddress }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: bytes,
          text,
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- as above
          json: <T>() => JSON.parse(text) as T,
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Asserts that `url` answers 200 with an ETag, and, when that tag is sent
 * back in If-None-Match, 304 with the same tag, no body and no type.
 * Resolves with both answers for the checks a test adds.
 */
export async function assertRevalidates(url: string, headers: Record<string, string> = {}): Promise<{ first: Answer; again: Answer }> {
  const first = await request(url, { headers });
  assert.equal(first.status, 200, url);
  const etag = first.headers['etag'];
  assert.ok(etag, `${url} answers an ETag`);
  const again = await request(url, { headers: { ...headers, 'If-None-Match': etag } });
  assert.equal(again.status, 304, `${url} revalidates`);
  assert.equal(again.body.length, 0);
  assert.equal(again.headers['etag'], etag);
  assert.equal(again.headers['content-type'], undefined, 'a 304 has no body to type');
  return { first, again };
}
