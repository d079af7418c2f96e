import { isIP } from 'node:net';

/**
 * The reader's address: the socket's, or with `trustedProxies` = N the Nth
 * address from the right of `X-Forwarded-For` (each proxy appends the address
 * it received from). Falls back to the socket address when the header is
 * shorter than the proxies claimed or holds no address there, so a forged
 * header never picks an arbitrary identity. Used only to hash, never kept.
 */
export function clientAddress(socketAddress: string, forwardedFor: string | null, trustedProxies: number): string {
  if (trustedProxies === 0 || !forwardedFor) return normalize(socketAddress);
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop.length > 0);
  const candidate = hops[hops.length - trustedProxies];
  return candidate && isIP(stripPort(candidate)) ? normalize(stripPort(candidate)) : normalize(socketAddress);
}

function stripPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1]) return bracketed[1];
  return /^[\d.]+:\d+$/.test(address) ? (address.split(':')[0] ?? address) : address;
}

/** One reader, one address: an IPv4 address seen through an IPv6 socket is the same reader. */
function normalize(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').toLowerCase();
}
