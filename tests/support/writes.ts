import { request as httpRequest } from 'node:http';
import { request, type Answer } from './http.ts';

/** The prepared site's SITE_URL (the default), the only Origin its writes are accepted from. */
export const SITE_ORIGIN = 'http://localhost:4321';

let nextAddress = 1;
/** A distinct reader address for each caller (documentation ranges: never a real host). */
export function newReaderAddress(): string {
  const n = nextAddress++;
  return `198.51.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

/** A same-origin JSON write from `address` (sent as X-Forwarded-For; the server runs with TRUST_PROXY=1). */
export function post(baseUrl: string, path: string, body: unknown, address: string, headers: Record<string, string> = {}): Promise<Answer> {
  return request(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { Origin: SITE_ORIGIN, 'Content-Type': 'application/json', 'X-Forwarded-For': address, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A same-origin JSON write sent from the loopback address `from` itself, without X-Forwarded-For: through a proxy, which names the reader by the address it saw. */
export function postFrom(baseUrl: string, path: string, body: unknown, from: string): Promise<Answer> {
  return request(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { Origin: SITE_ORIGIN, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    localAddress: from,
  });
}

export function get(baseUrl: string, path: string, address: string): Promise<Answer> {
  return request(`${baseUrl}${path}`, { headers: { 'X-Forwarded-For': address } });
}

/** A body sent in chunks with no Content-Length at all, as a streaming client would. */
export function postChunked(baseUrl: string, path: string, chunks: string[], address: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}${path}`,
      {
        method: 'POST',
        headers: { Origin: SITE_ORIGIN, 'Content-Type': 'application/json', 'X-Forwarded-For': address, 'Transfer-Encoding': 'chunked' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
        });
      },
    );
    // The server may answer 413 and close before every chunk is sent.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}
