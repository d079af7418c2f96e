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

/**
 * The last hash worked out on each connection. A keep-alive connection
 * carries one reader's requests (or a proxy's, for a few readers in turn), and
 * an HMAC per request would weigh on every small read. Held only
 * while the connection is: nothing here outlives the socket that already
 * holds the address.
 */
const lastHashOn = new WeakMap<object, { address: string; salt: string; hash: string }>();

/** readerHash, worked out again on a connection only when its address or the salt is not the last one's. */
export function readerHashOn(connection: object | undefined, address: string, salt: string): string {
  if (!connection) return readerHash(address, salt);
  const last = lastHashOn.get(connection);
  if (last?.address === address && last.salt === salt) return last.hash;
  const hash = readerHash(address, salt);
  lastHashOn.set(connection, { address, salt, hash });
  return hash;
}

/** A new random salt, for a store that keeps none yet (StoreLifecycle.keptSalt). */
export function newSalt(): string {
  return randomBytes(32).toString('base64url');
}
