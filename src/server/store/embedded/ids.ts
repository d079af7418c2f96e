import { randomBytes } from 'node:crypto';

/** A new record id: 16 URL-safe characters (96 random bits), unique without coordination. */
export function newId(): string {
  return randomBytes(12).toString('base64url');
}
