import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Whom the server believes about `X-Forwarded-For` (TRUST_PROXY): nobody
 * (`count` 0), the Nth address from the right whoever sent the header
 * (`count` N), or the proxies at the given addresses and ranges only.
 */
export type ProxyTrust = { count: number } | { proxies: BlockList };

/** The trust a TRUST_PROXY setting names: a count, or the proxies' addresses and CIDR ranges (already checked by the settings). */
export function proxyTrust(setting: number | readonly string[]): ProxyTrust {
  if (typeof setting === 'number') return { count: setting };
  const proxies = new BlockList();
  for (const entry of setting) {
    const [address = '', prefix] = entry.split('/');
    const canonical = canonicalAddress(address) ?? address;
    const family = isIPv4(canonical) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) proxies.addAddress(canonical, family);
    else proxies.addSubnet(canonical, Number(prefix), family);
  }
  return { proxies };
}

/**
 * The reader's address, canonical (canonicalAddress): the socket's, or one
 * from `X-Forwarded-For` (each proxy appends the address it received from).
 * With a count N, the Nth address from the right. With the proxies' own
 * addresses, only a request from one of them is read, from the right, past
 * every trusted proxy, up to the first address that is not one. Whatever is
 * missing or not an address falls back to the last address believed, so a
 * forged header never picks an arbitrary identity. Used only to hash, never kept.
 */
export function clientAddress(socketAddress: string, forwardedFor: string | null, trust: ProxyTrust): string {
  const canonicalSocket = canonicalAddress(socketAddress);
  const socket = canonicalSocket ?? socketAddress;
  if (!forwardedFor || canonicalSocket === null) return socket;
  if ('count' in trust) {
    if (trust.count === 0) return socket;
    const hops = forwardedFor
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop.length > 0);
    const candidate = hops[hops.length - trust.count];
    return (candidate !== undefined && canonicalAddress(stripPort(candidate))) || socket;
  }
  let believed = socket;
  const hops = forwardedFor.split(',');
  for (let index = hops.length - 1; index >= 0 && isTrusted(trust.proxies, believed); index -= 1) {
    const hop = (hops[index] ?? '').trim();
    if (hop.length === 0) continue;
    const address = canonicalAddress(stripPort(hop));
    if (address === null) break;
    believed = address;
  }
  return believed;
}

function isTrusted(proxies: BlockList, address: string): boolean {
  return proxies.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}

function stripPort(address: string): string {
  if (address.startsWith('[')) {
    const end = address.indexOf(']');
    return end > 0 ? address.slice(1, end) : address;
  }
  const colon = address.indexOf(':');
  // One colon is an IPv4 address with its port; an IPv6 address has at least two.
  return colon > 0 && colon === address.lastIndexOf(':') ? address.slice(0, colon) : address;
}

/**
 * One written form for each address, or null for text that is not one: an
 * IPv6 zone (`%eth0`) dropped, an IPv4-mapped IPv6 address as the IPv4 one
 * it carries, and any other IPv6 address as eight lower-case groups without
 * leading zeros, so that `2001:0db8::0001` and `2001:db8::1` are one address.
 */
export function canonicalAddress(text: string): string | null {
  const zone = text.indexOf('%');
  const bare = zone === -1 ? text : text.slice(0, zone);
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return null;
  const groups = ipv6Groups(bare);
  const [a, b, c, d, e, f, g = 0, h = 0] = groups;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff) return `${g >> 8}.${g & 255}.${h >> 8}.${h & 255}`;
  return groups.map((group) => group.toString(16)).join(':');
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((piece) => {
          if (!piece.includes('.')) return [Number.parseInt(piece, 16)];
          const [w = 0, x = 0, y = 0, z = 0] = piece.split('.').map(Number);
          return [(w << 8) | x, (y << 8) | z];
        });
  const gap = address.indexOf('::');
  if (gap === -1) return parse(address);
  const head = parse(address.slice(0, gap));
  const tail = parse(address.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/**
 * Who counts as one reader, for the hash behind names, votes, quotas and
 * bans: an IPv4 address, or an IPv6 address's /64. A subscriber's line or a
 * host is given a whole /64 and picks addresses in it at will, so counting
 * each address would give one person unlimited votes and no quota.
 */
export function readerKey(canonical: string): string {
  if (!canonical.includes(':')) return canonical;
  return `${canonical.split(':').slice(0, 4).join(':')}::/64`;
}
