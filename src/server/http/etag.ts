import { createHash } from 'node:crypto';

/** A strong validator for a body: the same bytes always get the same tag. */
export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Whether `If-None-Match` names this tag (weak comparison, RFC 9110 §13.1.2). */
export function matchesIfNoneMatch(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}
