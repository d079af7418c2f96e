/**
 * What an inbox POST passes before Fedify reads it (docs/architecture.md,
 * "Federation"), by the key it says it is signed with, so that refusing
 * costs no signature check, no key fetch and no parse: an instance the owner
 * blocked is answered 403; past its quota (QUOTAS, `inbox-instance` for its
 * host and `inbox-actor` for the key's owner), 429 with Retry-After, which
 * fediverse servers wait for before sending again; 503 when the quotas
 * cannot be checked. A key id that names another's host spends that host's
 * quota, never its blocks or its followers: Fedify still checks the
 * signature of what is let through.
 */
import { readerHash } from '../identity/reader-hash.ts';
import type { FederationData } from './data.ts';

/** The key id an inbox POST is signed with: draft-cavage's `Signature`, or RFC 9421's `Signature-Input`. */
const KEY_ID = /\bkeyid="([^"]+)"/i;

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });
}

/** The key a request says it is signed with; null when it names none. */
function signingKey(request: Request): URL | null {
  const header = request.headers.get('signature') ?? request.headers.get('signature-input') ?? '';
  const keyId = KEY_ID.exec(header)?.[1];
  return keyId === undefined ? null : URL.parse(keyId);
}

/** Takes one activity from `name`'s quota for `key` (hashed: a host may be an address); the seconds to wait when spent. */
async function spent(data: FederationData, name: 'inbox-instance' | 'inbox-actor', key: string): Promise<number | null> {
  const { quotas, salt } = data.writes;
  const result = await quotas.reserve(name, readerHash(`${name} ${key}`, salt));
  return result.admitted ? null : result.retryAfterSeconds;
}

/** The answer that refuses an inbox POST before it is read; null to hand it to Fedify (which answers 401 for no signature). */
export async function inboxRefusal(data: FederationData, request: Request): Promise<Response | null> {
  const key = request.method === 'POST' ? signingKey(request) : null;
  if (key === null) return null;
  if (await data.store.isInstanceBlocked(key.hostname)) return plain(403, 'This instance is blocked here');
  key.hash = '';
  try {
    const wait = (await spent(data, 'inbox-instance', key.hostname)) ?? (await spent(data, 'inbox-actor', key.href));
    return wait === null ? null : plain(429, 'Too many activities: send again later', { 'Retry-After': String(wait) });
  } catch {
    return plain(503, 'The inbox cannot take activities now: send again later', { 'Retry-After': '60' });
  }
}
