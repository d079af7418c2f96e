import { kvCache, signRequest, type KvStore } from '@fedify/fedify';
import { FetchError, type DocumentLoader } from '@fedify/vocab-runtime';
import type { SigningKey } from './inbox-post.ts';
import { outbound } from './outbound.ts';

/** What a remote actor, key or object is asked for as: ActivityPub's own media types. */
const ACTIVITY_JSON = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

/** The loaders Fedify is given: one for every document, and one that signs its GETs as an actor of the site. */
export interface DocumentLoaders {
  plain: DocumentLoader;
  signedAs: (key: SigningKey) => DocumentLoader;
}

/** Reads one document through outbound.ts, each GET signed by `key` when there is one. */
function reader(allowPrivate: boolean, key: SigningKey | null): DocumentLoader {
  const headersFor = key
    ? async (url: URL): Promise<Record<string, string>> => {
        const request = new Request(url, { headers: { Accept: ACTIVITY_JSON } });
        const signed = await signRequest(request, key.privateKey, key.keyId, { spec: 'draft-cavage-http-signatures-12' });
        return Object.fromEntries(signed.headers);
      }
    : undefined;
  return async (url, options) => {
    const signal = options?.signal ?? new AbortController().signal;
    const fetched = await outbound(url, { allowPrivate, signal, accept: ACTIVITY_JSON, ...(headersFor ? { headersFor } : {}) });
    if (fetched.status < 200 || fetched.status >= 300) throw new FetchError(url, `HTTP ${String(fetched.status)}`);
    return { contextUrl: null, documentUrl: fetched.url, document: JSON.parse(fetched.body) as unknown };
  };
}

/**
 * Fedify's document loaders (remote actors, their keys, the objects of
 * activities) over outbound.ts, so that what a signed request names is read
 * as any other request of the federation is: within its time limit and body
 * cap, and never from a private, loopback or link-local address unless
 * `allowPrivate`, checked again at the connection. A document is JSON, or
 * the load fails; an HTML page's alternate link is not followed. What the
 * plain loader reads is kept in `kv` with Fedify's expiry, and the contexts
 * Fedify carries are never fetched (kvCache); a signed read is not kept, as
 * Fedify keeps none.
 */
export function documentLoaders(kv: KvStore, allowPrivate: boolean): DocumentLoaders {
  return { plain: kvCache({ loader: reader(allowPrivate, null), kv }), signedAs: (key) => reader(allowPrivate, key) };
}
