import { clientAddress, readerKey, type ProxyTrust } from './client-address.ts';
import { readerHashOn } from './reader-hash.ts';

/** A request as far as knowing its caller goes: its headers, whatever carries them (the API's request, a web Request). */
interface CallerRequest {
  header(name: string): string | null;
}

/** Where a request came from, as the server saw it. */
export interface CallerSource {
  request: CallerRequest;
  /** The socket's address as the server saw it. */
  socketAddress: string;
  /** The connection the request came on, when the server knows it: the reader's hash is worked out once on it. */
  connection?: object;
}

/** What knowing a caller needs from the process: whose `X-Forwarded-For` to believe, and the salt of the hash. */
export interface CallerKeys {
  trustedProxies: ProxyTrust;
  salt: string;
}

/**
 * The caller's address (canonical) and hash (of its reader key: the /64 of
 * an IPv6 address), as every route that knows a reader computes them: the
 * writes, the caller's own votes, MCP.
 */
export function identify({ request, socketAddress, connection }: CallerSource, keys: CallerKeys): { address: string; hash: string } {
  const address = clientAddress(socketAddress, request.header('X-Forwarded-For'), keys.trustedProxies);
  return { address, hash: readerHashOn(connection, readerKey(address), keys.salt) };
}
