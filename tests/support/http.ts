import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

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
 * so tests see the bytes a client gets.
 */
export function request(
  url: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A body always gets its length: without it, Node frames no body for DELETE or OPTIONS.
    const framed = body === undefined ? headers : { 'Content-Length': String(Buffer.byteLength(body)), ...headers };
    const req = httpRequest(url, { method, headers: framed }, (res) => {
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
