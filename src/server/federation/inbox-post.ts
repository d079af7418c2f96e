import { signRequest } from '@fedify/fedify';
import { validatePublicUrl } from '@fedify/vocab-runtime';

/** What became of one POST of an activity to an inbox. */
export type PostOutcome = 'delivered' | 'gone' | 'private' | 'failed';

/** The key a language's actor signs its requests with: RSA, which every server's draft-cavage verification knows. */
export interface SigningKey {
  privateKey: CryptoKey;
  keyId: URL;
}

/**
 * POSTs an activity's JSON-LD to a remote inbox, signed (HTTP Signatures,
 * draft-cavage, as Mastodon and Fedify both verify), within `signal`. An
 * inbox whose host is or resolves to a private, loopback or link-local
 * address is never asked unless `allowPrivate`; a redirect is not
 * followed (a POST's body would go where the inbox never said). 404 and
 * 410 say the inbox is gone for good; anything else is tried again later.
 */
export async function postActivity(
  inbox: string,
  body: string,
  key: SigningKey,
  options: { allowPrivate: boolean; signal: AbortSignal },
): Promise<PostOutcome> {
  if (!options.allowPrivate) {
    try {
      await validatePublicUrl(inbox);
    } catch {
      return 'private';
    }
  }
  const request = new Request(inbox, {
    method: 'POST',
    headers: { 'Content-Type': 'application/activity+json', Accept: 'application/activity+json' },
    body,
  });
  const signed = await signRequest(request, key.privateKey, key.keyId, { spec: 'draft-cavage-http-signatures-12' });
  const response = await fetch(signed, { signal: options.signal, redirect: 'manual' });
  await response.body?.cancel();
  if (response.ok) return 'delivered';
  return response.status === 404 || response.status === 410 ? 'gone' : 'failed';
}
