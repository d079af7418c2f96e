import type { z } from 'zod';
import type { ApiResponse } from './api-response.ts';
import type { ApiRequest } from './api-request.ts';
import { jsonError } from './json-responses.ts';

/** The largest request body a write accepts (docs/architecture.md, "A request's path"). */
export const MAX_BODY_BYTES = 16 * 1024;

export type Guarded<T> = { ok: true; value: T } | { ok: false; response: ApiResponse };

function refuse(status: number, message: string, headers: Record<string, string> = {}): { ok: false; response: ApiResponse } {
  return { ok: false, response: jsonError(status, message, headers) };
}

function isJsonMediaType(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** "requestTitle: Too small: expected string to have >=3 characters" — the field first, so a form can point at it. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/**
 * The guards of every write, in the pipeline's order (docs/architecture.md, "A request's path"): the site's own
 * Origin (403), a JSON content type (415), a body of at most 16 KiB whatever
 * Content-Length says (413), JSON that parses (400), and the operation's
 * schema (400, naming the field).
 */
export async function guardWrite<T>(request: ApiRequest, site: string, schema: z.ZodType<T>): Promise<Guarded<T>> {
  if (request.header('Origin') !== site) {
    return refuse(403, `Writes are accepted from the site's own pages only (Origin ${site})`);
  }
  if (!isJsonMediaType(request.header('Content-Type'))) return refuse(415, 'Content-Type must be application/json');
  const { bytes, tooLarge } = await request.body();
  if (tooLarge) return refuse(413, `The body must be at most ${MAX_BODY_BYTES} bytes`, { Connection: 'close' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return refuse(400, 'The body is not valid JSON');
  }
  const result = schema.safeParse(parsed);
  if (!result.success) return refuse(400, describeIssues(result.error));
  return { ok: true, value: result.data };
}
