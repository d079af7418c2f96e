import { isIP } from 'node:net';
import { z } from 'zod';

/** What a reader throws for text it cannot take: what the text must be, said after the variable's name. */
class WrongText extends Error {}

/**
 * A setting's parser: a zod schema from the variable's text (never empty:
 * an empty variable counts as unset) to its value. `read` throws
 * `wrong(…)` for text it cannot take; the message follows the variable's
 * name ("must be a port number, not "x"").
 */
function parser<T>(read: (raw: string) => T): z.ZodType<T, string> {
  return z.string().transform((raw, context) => {
    try {
      return read(raw);
    } catch (error) {
      if (!(error instanceof WrongText)) throw error;
      context.issues.push({ code: 'custom', message: error.message, input: raw });
      return z.NEVER;
    }
  });
}

function wrong(message: string): never {
  throw new WrongText(message);
}

/** Any text, as it is. */
export function text(): z.ZodType<string, string> {
  return parser((raw) => raw);
}

/** A TCP port, 0 to 65535 (0 picks a free one). */
export function port(): z.ZodType<number, string> {
  return parser((raw) => {
    const value = Number(raw);
    return Number.isInteger(value) && value >= 0 && value <= 65535 ? value : wrong(`must be a port number, not "${raw}"`);
  });
}

/** A number of seconds from 0 to `max`. */
export function seconds(max: number): z.ZodType<number, string> {
  return parser((raw) => {
    const value = Number(raw);
    return raw.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= max
      ? value
      : wrong(`must be a number of seconds from 0 to ${max}, not "${raw}"`);
  });
}

/** A whole number from 1 to `max`. */
export function count(max: number): z.ZodType<number, string> {
  return parser((raw) => {
    const value = Number(raw);
    return /^\s*\d+\s*$/.test(raw) && value >= 1 && value <= max ? value : wrong(`must be a whole number from 1 to ${max}, not "${raw}"`);
  });
}

/** A number of MiB (0 or more), read as whole bytes. */
export function mebibytes(): z.ZodType<number, string> {
  return parser((raw) => {
    const mib = Number(raw);
    return Number.isFinite(mib) && mib >= 0 ? Math.floor(mib * 1024 * 1024) : wrong(`must be a number of MiB (0 or more), not "${raw}"`);
  });
}

/** One of `values`, whatever its case and surrounding spaces. */
export function oneOf<const V extends string>(values: readonly V[]): z.ZodType<V, string> {
  const said = values.length === 2 ? values.join(' or ') : `one of ${values.join(', ')}`;
  return parser((raw) => {
    const named = raw.trim().toLowerCase();
    return values.find((value) => value === named) ?? wrong(`must be ${said}, not "${named}"`);
  });
}

/** A URL whose scheme is one of `protocols` (`https:`). */
export function url(protocols: readonly string[]): z.ZodType<string, string> {
  const must = `must start with ${protocols.map((protocol) => `${protocol}//`).join(' or ')}`;
  return parser((raw) => (protocols.includes(urlOf(raw).protocol) ? raw : wrong(must)));
}

/** A URL, read as its origin (`https://example.org`). */
export function origin(): z.ZodType<string, string> {
  return parser((raw) => urlOf(raw).origin);
}

/** An http(s) origin and nothing more: `https://desk.example.org`, a trailing slash allowed. */
export function exactOrigin(example: string): z.ZodType<string, string> {
  return parser((raw) => {
    const read = urlOf(raw);
    return /^https?:$/.test(read.protocol) && read.origin === raw.replace(/\/$/, '')
      ? read.origin
      : wrong(`must be an origin, such as ${example}`);
  });
}

function urlOf(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    return wrong('is not a URL');
  }
}

/**
 * Whom to believe about `X-Forwarded-For`: a number of proxies (a count
 * believed from any peer), or the proxies' own addresses and CIDR ranges,
 * comma-separated.
 */
export function proxies(): z.ZodType<number | string[], string> {
  return parser((raw) => {
    const trimmed = raw.trim();
    if (/^\d+$/.test(trimmed)) return Number(trimmed);
    const entries = trimmed.split(',').map((entry) => entry.trim());
    const bad = entries.find((entry) => !isAddressOrRange(entry));
    return bad === undefined
      ? entries
      : wrong(`must be a whole number of proxies or their addresses and CIDR ranges, comma-separated; "${bad}" is neither`);
  });
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
