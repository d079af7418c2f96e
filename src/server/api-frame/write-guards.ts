import type { z } from 'zod';
import type { ApiRequest } from './api-request.ts';
import { refusal, type Refusal } from './refusals.ts';

/** The largest request body a write accepts (docs/architecture.md, "A request's path"). */
export const MAX_BODY_BYTES = 16 * 1024;

/** A write's input as its schema gives it, or the refusal of its body. */
export type Guarded<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

function isJsonMediaType(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** "requestTitle: Too small: expected string to have >=3 characters" — the field first, so a form can point at it. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/** The first guard of every write (docs/architecture.md, "A request's path"): the site's own Origin (403). */
export function originRefusal(request: ApiRequest, site: string): Refusal | null {
  return request.header('Origin') === site
    ? null
    : refusal('cross_origin', `Writes are accepted from the site's own pages only (Origin ${site})`);
}

/**
 * The guards of a write's body, in the pipeline's order: a JSON content type
 * (415), a body of at most 16 KiB whatever Content-Length says (413), JSON
 * that parses (400), and the operation's schema (400, naming the field).
 */
export async function readInput<T>(request: ApiRequest, schema: z.ZodType<T>): Promise<Guarded<T>> {
  if (!isJsonMediaType(request.header('Content-Type'))) return { ok: false, refusal: refusal('unsupported_media_type') };
  const { bytes, tooLarge } = await request.body();
  if (tooLarge) {
    const message = `The body must be at most ${MAX_BODY_BYTES} bytes`;
    return { ok: false, refusal: refusal('body_too_large', message, { Connection: 'close' }) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return { ok: false, refusal: refusal('invalid_json') };
  }
  const result = schema.safeParse(parsed);
  return result.success ? { ok: true, value: result.data } : { ok: false, refusal: refusal('invalid_input', describeIssues(result.error)) };
}
