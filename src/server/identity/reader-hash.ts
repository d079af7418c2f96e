import { createHmac, randomBytes } from 'node:crypto';

/** The salted hash that identifies a reader: HMAC-SHA-256 of the address, base64url. */
export function readerHash(address: string, salt: string): string {
  return createHmac('sha256', salt).update(address).digest('base64url');
}

/** A new random salt, for a store that keeps none yet (StoreEngine.keptSalt). */
export function newSalt(): string {
  return randomBytes(32).toString('base64url');
}
