/**
 * Every request the federation makes to another server (docs/architecture.md,
 * "Federation"): a remote actor, key or object read for Fedify
 * (document-loader.ts), an activity POSTed to an inbox (inbox-post.ts), and
 * Webmention's source read, endpoint discovered and mention POSTed. Each has
 * a time limit, a cap on the body it reads, and follows at most a few
 * redirects (a GET's), each checked again. Unless
 * `allowPrivate` (FEDERATION_ALLOW_PRIVATE_ADDRESSES=1), a host that is or
 * resolves to a private, loopback or link-local address is refused before
 * any request (Fedify's check), and again at the connection, on the
 * addresses the connection is made to: a name that resolves differently the
 * second time is refused too.
 */
import { lookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isValidPublicIPv4Address, isValidPublicIPv6Address, validatePublicUrl } from '@fedify/vocab-runtime';

/** The largest body read: a long page fits, a flood does not. */
const MOST_BYTES = 1024 * 1024;
/** The most a request may take, its redirects included. */
const TIMEOUT_MS = 10_000;
const MOST_REDIRECTS = 5;
const USER_AGENT = 'Longhand';
const HTML = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1';

/** A request refused because of where it goes: never tried again. */
export class RefusedAddress extends Error {}

/** A body to POST, with its headers besides the User-Agent. */
export interface Posted {
  headers: Record<string, string>;
  body: string;
}

export interface OutboundOptions {
  allowPrivate: boolean;
  /** Aborts the request (the worker stopping). */
  signal: AbortSignal;
  /** What a GET accepts: HTML (a Webmention source or target) unless said. */
  accept?: string;
  /** A body to POST instead of a GET; a POST follows no redirect. */
  post?: Posted;
  /** More headers for each request made, a redirect's too: a signature names the URL it was made for. */
  headersFor?: (url: URL) => Promise<Record<string, string>>;
}

/** A form POSTed as `application/x-www-form-urlencoded`. */
export function formPost(form: Record<string, string>): Posted {
  return { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() };
}

export interface Fetched {
  status: number;
  /** Where the answer came from, after redirects. */
  url: string;
  headers: IncomingMessage['headers'];
  /** The body of a 2xx answer to a GET, as text; empty for any other: the answer to a POST is never read. */
  body: string;
}

function isPublic({ address, family }: LookupAddress): boolean {
  return family === 4 ? isValidPublicIPv4Address(address) : isValidPublicIPv6Address(address);
}

/** node:dns's lookup, refusing when any address it finds is not public. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
    const first = addresses[0];
    if (error || !first) callback(error ?? new RefusedAddress('no address'), '', 0);
    else if (!addresses.every(isPublic)) callback(new RefusedAddress(`${hostname} resolves to a private address`), '', 0);
    else if (options.all) (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  });
};

/** One request, no redirect followed; rejects with RefusedAddress for an address refused. */
async function once(url: URL, options: OutboundOptions & { signal: AbortSignal }): Promise<Omit<Fetched, 'url'>> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedAddress(`not http(s): ${url.protocol}`);
  if (!options.allowPrivate) await validatePublicUrl(url.href).catch((error: unknown) => Promise.reject(new RefusedAddress(String(error))));
  const { post } = options;
  const more = options.headersFor ? await options.headersFor(url) : {};
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: post === undefined ? 'GET' : 'POST',
        signal: options.signal,
        headers: {
          'User-Agent': USER_AGENT,
          ...(post === undefined ? { Accept: options.accept ?? HTML } : post.headers),
          ...more,
        },
        ...(options.allowPrivate ? {} : { lookup: publicLookup }),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        // An inbox or an endpoint that took a POST has said all in its status: a body past MOST_BYTES must not undo that.
        if (post !== undefined || status < 200 || status >= 300) res.resume();
        else
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MOST_BYTES) req.destroy(new Error('the body is too large'));
            else chunks.push(chunk);
          });
        res.on('end', () => {
          resolve({ status, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (error) => {
      reject(error.cause instanceof RefusedAddress ? error.cause : error);
    });
    req.end(post?.body);
  });
}

/** GETs `url` (or POSTs `options.post` to it) within the limits above; rejects with RefusedAddress for an address refused. */
export async function outbound(url: string, options: OutboundOptions): Promise<Fetched> {
  const signal = AbortSignal.any([AbortSignal.timeout(TIMEOUT_MS), options.signal]);
  let at = new URL(url);
  for (let redirects = 0; ; redirects += 1) {
    const answer = await once(at, { ...options, signal });
    const location = answer.headers.location;
    if (answer.status < 300 || answer.status >= 400 || location === undefined || options.post || redirects >= MOST_REDIRECTS)
      return { ...answer, url: at.href };
    at = new URL(location, at);
  }
}
