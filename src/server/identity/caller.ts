import { clientAddress, readerKey, type ProxyTrust } from './client-address.ts';
import { readerHash } from './reader-hash.ts';

/** A request as far as knowing its caller goes: its headers, whatever carries them (the API's request, a web Request). */
interface CallerRequest {
  header(name: string): string | null;
}

/** Where a request came from, as the server saw it. */
export interface CallerSource {
  request: CallerRequest;
  /** The socket's address as the server saw it. */
  socketAddress: string;
  /** The connection the request came on, when the server knows it: its caller is worked out once on it. */
  connection?: object;
}

/** What knowing a caller needs from the process: whose `X-Forwarded-For` to believe, and the salt of the hash. */
export interface CallerKeys {
  trustedProxies: ProxyTrust;
  salt: string;
}

/** The caller's address (canonical) and hash (of its reader key: the /64 of an IPv6 address). */
export interface Caller {
  address: string;
  hash: string;
}

/**
 * The last caller worked out on each connection, with what it was worked out
 * from. A keep-alive connection carries one reader's requests (or a proxy's,
 * for a few readers in turn), and an address made canonical and an HMAC a
 * request would weigh on every small read. Held only while the connection
 * is: nothing here outlives the socket that already holds the address.
 */
const lastCallerOn = new WeakMap<object, { socketAddress: string; forwardedFor: string | null; keys: CallerKeys; caller: Caller }>();

/**
 * The caller as every route that knows a reader works it out: the writes,
 * the caller's own votes, MCP. `X-Forwarded-For` is read only where some
 * proxy is trusted.
 */
export function identify({ request, socketAddress, connection }: CallerSource, keys: CallerKeys): Caller {
  const trust = keys.trustedProxies;
  const forwardedFor = 'count' in trust && trust.count === 0 ? null : request.header('X-Forwarded-For');
  const last = connection && lastCallerOn.get(connection);
  if (last && last.socketAddress === socketAddress && last.forwardedFor === forwardedFor && last.keys === keys) return last.caller;
  const address = clientAddress(socketAddress, forwardedFor, trust);
  const caller = { address, hash: readerHash(readerKey(address), keys.salt) };
  if (connection) lastCallerOn.set(connection, { socketAddress, forwardedFor, keys, caller });
  return caller;
}
