/**
 * What an API operation reads of its request. The front server makes one
 * straight from Node's request, without a web Request, its Headers or a body
 * stream, which cost more than a small read itself; the Astro route (under
 * `astro dev`) makes one from the web Request.
 */
export interface ApiRequest {
  /** HEAD is asked as GET: the server leaves the body out. */
  readonly method: string;
  /** On the site's origin. */
  readonly url: URL;
  /** A header's value, by its name in any case; null when absent. */
  header(name: string): string | null;
  /** The body's bytes, at most one past `limit`: enough to know it is too large, never more in memory. */
  body(limit: number): Promise<Uint8Array>;
}

/** Reads at most one byte past `limit` of a body as it streams in. */
async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) {
      // Stop reading: the rest is never buffered, and the connection closes after the 413.
      reader.releaseLock();
      return Buffer.concat(chunks).subarray(0, limit + 1);
    }
  }
}

/** The API request of a web Request. */
export function apiRequestOf(request: Request): ApiRequest {
  return {
    method: request.method === 'HEAD' ? 'GET' : request.method,
    url: new URL(request.url),
    header: (name) => request.headers.get(name),
    body: (limit) => readLimited(request.body, limit),
  };
}
