/**
 * What the front server says of each request it answered: its counts for
 * the metrics, and one access-log line (at `info`). The line names the request, never the reader: no
 * address, no hash, no query string (a query can carry what a reader typed),
 * no header.
 */
import { randomUUID } from 'node:crypto';
import { requestCounted } from './counters.ts';
import { log } from './log.ts';

/** What kind of answer a request got, as logs and metrics group requests. */
type RouteKind = 'page' | 'twin' | 'fragment' | 'asset' | 'health' | 'form' | 'api' | 'mcp' | 'moderation' | 'federation' | 'newsletter';

/** Filled by the front server while it answers: what the request turned out to be. */
export interface Served {
  kind: RouteKind;
  /** The API operation's id, '' for anything else (or an `/api` path no operation serves). */
  operation: string;
  /** The `X-Request-Id` a 5xx carries, so that its log lines and its access line share it; '' otherwise. */
  requestId: string;
}

export function servedRecord(): Served {
  return { kind: 'page', operation: '', requestId: '' };
}

/** Paths are logged up to this many characters: a 16,000-character path is an attack, not something to read. */
const LOGGED_PATH = 512;

/** The first 24 characters of every access line's id in this process: random, in a version 4 UUID's shape. */
const ID_PREFIX = randomUUID().slice(0, 24);
let accessLines = 0;

/**
 * An access line's id: the process's random prefix, then the line's count as
 * twelve hex digits, so that ids are unique across processes and restarts and
 * shaped as a UUID, without the cost of 122 fresh random bits a request.
 */
function accessLineId(): string {
  accessLines++;
  return ID_PREFIX + accessLines.toString(16).padStart(12, '0');
}

/**
 * Records an answered request: its counts and its access-log line. `path` is
 * without its query string; a moderation link's is logged without its token,
 * which acts on the store for whoever holds it.
 */
export function requestServed(method: string, path: string, status: number, served: Served, bytes: number, ms: number): void {
  requestCounted(served.kind, served.operation, status, ms / 1000);
  const logger = log();
  if (!logger.enabled('info')) return;
  logger.request({
    requestId: served.requestId || accessLineId(),
    method,
    kind: served.kind,
    operation: served.operation,
    path: served.kind === 'moderation' ? '/moderation/…' : path.length > LOGGED_PATH ? `${path.slice(0, LOGGED_PATH)}…` : path,
    status,
    ms: Math.round(ms * 100) / 100,
    bytes,
  });
}
