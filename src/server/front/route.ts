import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Served } from '../observability/requests.ts';

/**
 * A route of the front server (docs/architecture.md, "A request's path"): it
 * answers the requests that are its own and resolves with the body's bytes
 * sent, or resolves with null, having sent nothing, to pass the request on.
 * It returns null at once for a request it can tell is not its own, so that
 * passing costs no promise, and the bytes sent at once for one it answered
 * without waiting. It says what it answered in `served`. `url` is
 * shared with other requests of the same target (requestUrls): read, never changed.
 */
export type Route = (req: IncomingMessage, res: ServerResponse, url: URL, served: Served) => Promise<number | null> | number | null;

/**
 * A route asked by the request's path as Node gives it, before any URL is
 * parsed (the probes, the form answers): any query string is ignored.
 */
export type PathRoute = (req: IncomingMessage, res: ServerResponse, path: string, served: Served) => Promise<number> | null;
