import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { StoreLifecycle } from '../store/roles.ts';

/** The name the key pairs are kept under in the store (StoreLifecycle's keptSecret). */
const KEYS_SECRET = 'federation-keys';

/**
 * The actors' key pairs: RSA (RSASSA-PKCS1-v1_5), which Mastodon's
 * draft-cavage HTTP signatures need, and Ed25519 for Object Integrity
 * Proofs. Made once and kept in the store as JWKs, so that every instance
 * sharing the store signs alike; never logged.
 */
export async function keptKeyPairs(store: Pick<StoreLifecycle, 'keptSecret'>): Promise<CryptoKeyPair[]> {
  const kept = await store.keptSecret(KEYS_SECRET, async () => {
    const pairs = await Promise.all([generateCryptoKeyPair('RSASSA-PKCS1-v1_5'), generateCryptoKeyPair('Ed25519')]);
    return JSON.stringify(
      await Promise.all(pairs.map(async (pair) => [await exportJwk(pair.privateKey), await exportJwk(pair.publicKey)])),
    );
  });
  const jwks = JSON.parse(kept) as [JsonWebKey, JsonWebKey][];
  return Promise.all(
    jwks.map(async ([privateJwk, publicJwk]) => ({
      privateKey: await importJwk(privateJwk, 'private'),
      publicKey: await importJwk(publicJwk, 'public'),
    })),
  );
}
