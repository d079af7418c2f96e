import { signRequest } from '@fedify/fedify';
import { outbound, RefusedAddress } from './outbound.ts';

/** What became of one POST of an activity to an inbox. */
export type PostOutcome = 'delivered' | 'gone' | 'private' | 'failed';

/** The key a language's actor signs its requests with: RSA, which every server's draft-cavage verification knows. */
export interface SigningKey {
  privateKey: CryptoKey;
  keyId: URL;
}

/**
 * POSTs an activity's JSON-LD to a remote inbox, signed (HTTP Signatures,
 * draft-cavage, as Mastodon and Fedify both verify), within `signal`,
 * through outbound.ts: an inbox whose host is or resolves to a private,
 * loopback or link-local address is never asked unless `allowPrivate`, nor
 * connected to on such an address, and a redirect is not followed (a
 * POST's body would go where the inbox never said). 404 and 410 say the
 * inbox is gone for good; anything else is tried again later.
 */
export async function postActivity(
  inbox: string,
  body: string,
  key: SigningKey,
  options: { allowPrivate: boolean; signal: AbortSignal },
): Promise<PostOutcome> {
  const request = new Request(inbox, {
    method: 'POST',
    headers: { 'Content-Type': 'application/activity+json', Accept: 'application/activity+json' },
    body,
  });
  const signed = await signRequest(request, key.privateKey, key.keyId, { spec: 'draft-cavage-http-signatures-12' });
  try {
    const { status } = await outbound(inbox, { ...options, post: { headers: Object.fromEntries(signed.headers), body } });
    if (status >= 200 && status < 300) return 'delivered';
    return status === 404 || status === 410 ? 'gone' : 'failed';
  } catch (error) {
    if (error instanceof RefusedAddress) return 'private';
    throw error;
  }
}
