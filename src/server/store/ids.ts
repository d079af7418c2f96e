import { randomBytes } from 'node:crypto';

const ID_BYTES = 12;
// Random bytes fetched 256 ids at a time: one call to the system's generator instead of one per write.
const POOL_BYTES = ID_BYTES * 256;
let pool = Buffer.alloc(0);
let offset = 0;

/** A new record id: 16 URL-safe characters (96 random bits), unique without coordination. */
export function newId(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}
