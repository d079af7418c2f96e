import { LRUCache } from 'lru-cache';
import { REVISION_HEADER, REVISION_TOPIC_HEADER, sharedMaxAge } from '../http/cache-rules.ts';
import { etagOf } from '../http/etag.ts';
import { encodeBody } from './encoding.ts';
import { isCompressible } from '../http/media-types.ts';
import type { StoredResponse } from './stored-response.ts';

/** Brotli quality for answers compressed while a reader waits: fast, still far smaller than gzip -1. */
const ON_DEMAND_QUALITY = 5;

/**
 * What an on-demand render says it shows (headers `X-Revision-Topic` and
 * `X-Revision`): one store topic at one revision. It is kept while the
 * store's revision of that topic is the same, however long.
 */
export interface Revision {
  topic: string;
  token: string;
}

interface CacheEntry {
  response: StoredResponse;
  /** The bytes it holds against the budget: none for a response shared with others (kept by `keep`). */
  bytes: number;
  expiresAt: number;
  storedAt: number;
  revision: Revision | undefined;
}

/** The headers by which a render names its revision: `X-Revision-Topic`, then `X-Revision`. */
export const REVISION_HEADERS = [REVISION_TOPIC_HEADER, REVISION_HEADER] as const;

export interface ResponseCacheOptions {
  /** Entries kept at most; the least recently used goes first. */
  maxEntries: number;
  /** Bytes of bodies (every encoding) kept at most, the same way: a busy thread's render is hundreds of KB. */
  maxBytes?: number;
  now?: () => number;
}

/** The bytes a response's bodies hold, in every encoding. */
function bytesOf(response: StoredResponse): number {
  const { identity, br, gzip } = response.bodies;
  return identity.length + (br?.length ?? 0) + (gzip?.length ?? 0);
}

/**
 * An in-process shared cache for answers rendered on demand. It keeps a 200
 * only as long as its own `Cache-Control` allows a shared cache to (`public`,
 * `max-age`), so each endpoint stays the one that decides its caching; it
 * adds an `ETag` where the response has none and compresses once per fill.
 * Concurrent misses are not merged into one render: a response may turn out
 * to be private to its caller (GET /api/votes), and only its own headers tell.
 * A response that names its store revision (`X-Revision-Topic`, `X-Revision`,
 * never sent on) is kept regardless of time, and the front server serves it
 * only while that revision is the store's.
 */
export class ResponseCache {
  readonly #entries: LRUCache<string, CacheEntry>;
  #hits = 0;
  #misses = 0;
  readonly #now: () => number;

  constructor({ maxEntries, maxBytes, now = Date.now }: ResponseCacheOptions) {
    // A shared response counts one byte: lru-cache sizes are positive.
    this.#entries = new LRUCache<string, CacheEntry>({
      max: maxEntries,
      ...(maxBytes === undefined ? {} : { maxSize: maxBytes, sizeCalculation: (entry) => Math.max(1, entry.bytes) }),
    });
    this.#now = now;
  }

  /**
   * A fresh stored response for `key` and its age in seconds, or undefined. An
   * response kept by revision comes with it: the caller checks it is current.
   */
  get(key: string): { response: StoredResponse; age: number; revision: Revision | undefined } | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      this.#misses += 1;
      return undefined;
    }
    const now = this.#now();
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      this.#misses += 1;
      return undefined;
    }
    this.#hits += 1;
    return { response: entry.response, age: Math.floor((now - entry.storedAt) / 1000), revision: entry.revision };
  }

  /**
   * Keeps a response made once and shared (the built not-found page, kept under
   * every missing address asked for) under `key` for `seconds`. It holds no
   * bytes of its own, so it counts against the entries, not the bytes: a
   * crawler's thousand missing addresses push no render out by their size.
   */
  keep(key: string, response: StoredResponse, seconds: number): void {
    const now = this.#now();
    this.#entries.set(key, { response, bytes: 0, storedAt: now, expiresAt: now + seconds * 1000, revision: undefined });
  }

  /**
   * Reads a rendered response into memory, and keeps it under `key` when its
   * headers allow and `keep` (the caller's admission) does not say otherwise;
   * one not kept is not compressed either.
   */
  async store(key: string, response: Response, keep = true): Promise<StoredResponse> {
    const identity = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (
        !['content-length', 'content-encoding', 'etag', 'vary', 'transfer-encoding', REVISION_TOPIC_HEADER, REVISION_HEADER].includes(name)
      )
        headers[name] = value;
    });
    const topic = response.headers.get(REVISION_TOPIC_HEADER);
    const token = response.headers.get(REVISION_HEADER);
    const revision = topic !== null && token !== null ? { topic, token } : undefined;
    const maxAge = revision ? Number.POSITIVE_INFINITY : sharedMaxAge(response.headers.get('Cache-Control'));
    const cacheable = keep && response.status === 200 && maxAge > 0 && !response.headers.has('Set-Cookie');
    const contentType = response.headers.get('Content-Type') ?? '';
    // Astro names HTML without its charset; every page here is UTF-8.
    if (contentType === 'text/html') headers['content-type'] = 'text/html; charset=utf-8';
    const stored: StoredResponse = {
      status: response.status,
      headers,
      // Only a 200 is ever sent with its tag; hashing anything else is wasted.
      etag: response.headers.get('ETag') ?? (response.status === 200 ? etagOf(identity) : ''),
      bodies: cacheable && isCompressible(contentType) ? encodeBody(identity, ON_DEMAND_QUALITY) : { identity },
    };
    if (cacheable) {
      const now = this.#now();
      this.#entries.set(key, { response: stored, bytes: bytesOf(stored), storedAt: now, expiresAt: now + maxAge * 1000, revision });
    }
    return stored;
  }

  /** What it holds, and how often `get` found a fresh entry (a hit) or none (a miss), for the metrics. */
  stats(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.#entries.size, bytes: this.#entries.calculatedSize, hits: this.#hits, misses: this.#misses };
  }
}

/**
 * The URL a shared response is keyed by and made from: only the query
 * parameters its maker reads (`parameters`, sorted), in that order, the
 * first value of each. A made-up parameter, a repeated one or another order
 * is then the same response. A URL already in that form is kept as it is.
 */
export function keptUrl(url: URL, parameters: readonly string[]): URL {
  if (url.search === '') return url;
  const asked = [...url.searchParams.keys()];
  if (asked.every((name, index) => parameters.includes(name) && (index === 0 || (asked[index - 1] ?? '') < name))) return url;
  const kept = new URL(url.pathname, url.origin);
  for (const name of parameters) {
    const value = url.searchParams.get(name);
    if (value !== null) kept.searchParams.set(name, value);
  }
  return kept;
}
