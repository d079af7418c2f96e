import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/**
 * The salt as an HMAC key, made once per salt (a process uses one): an HMAC
 * keyed by a KeyObject is set up at a fraction of the cost of one keyed by a
 * string, and every write from a new address works one out.
 */
let saltKey: { salt: string; key: KeyObject } | undefined;

function keyOf(salt: string): KeyObject {
  if (saltKey?.salt !== salt) saltKey = { salt, key: createSecretKey(salt, 'utf8') };
  return saltKey.key;
}

/** The salted hash that identifies a reader: HMAC-SHA-256 of the address (keyed by the salt's UTF-8 bytes), base64url. */
export function readerHash(address: string, salt: string): string {
  return createHmac('sha256', keyOf(salt)).update(address).digest('base64url');
}

/** A new random salt, for a store that keeps none yet (StoreLifecycle.keptSalt). */
export function newSalt(): string {
  return randomBytes(32).toString('base64url');
}
