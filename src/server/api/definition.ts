import type { z } from 'zod';
import type { PublishedView } from '../articles/catalog.ts';
import type { CityIndex } from '../cities/city-index.ts';
import type { ApiResponse } from '../api-frame/api-response.ts';
import type { ApiRequest } from '../api-frame/api-request.ts';
import type { Deprecation } from '../http/deprecation.ts';
import type { QuotaName } from '../quotas/limits.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { ResponseHeaderName } from './response-headers.ts';

/**
 * What the handlers need from the process, handed in by whoever dispatches
 * (src/site/api-services.ts in the build), so that the registry itself
 * loads without Astro.
 */
export interface ApiServices {
  /** The site's own origin. */
  site: string;
  /** The publication's name: its home page's title. */
  name(): Promise<string>;
  /** The articles published today. */
  published(): Promise<PublishedView>;
  /** Settings, salt, quotas and store, opened once. */
  runtime(): Promise<Runtime>;
  cities(): CityIndex;
}

/** One request to an operation. */
export interface ApiCall {
  request: ApiRequest;
  /** The socket's peer; the reader's own address is derived from it and X-Forwarded-For (TRUST_PROXY). */
  socketAddress: string;
  /** The connection it came on, when the server knows it (WriteRequest.connection). */
  connection?: object;
  services: ApiServices;
}

/** Answers one operation's requests; the dispatcher wraps it in the API frame. */
type Handler = (call: ApiCall) => ApiResponse | Promise<ApiResponse>;

/** One status an operation answers with. */
export interface ResponseDefinition {
  description: string;
  /** The body's schema; absent for a response without a body (304). */
  schema?: z.ZodType;
  /**
   * Named example bodies, written with EXAMPLE_SITE as the origin; the
   * documents show the site's own instead.
   */
  examples?: Readonly<Record<string, unknown>>;
  /** Cache-Control of this response, when it is not the operation's (successes) or `no-store` (errors). */
  cacheControl?: string;
  /** Headers besides Cache-Control and those every `/api` answer carries (FRAME_HEADERS). */
  headers?: readonly ResponseHeaderName[];
}

/**
 * One API operation, its registry entry: the dispatcher routes requests to
 * its `handle` by method and path, /openapi.json, /developers and its
 * Markdown twin are generated from the rest, and the API frame reads
 * `deprecation` from it.
 */
export interface OperationDefinition {
  /** The operation's id, as /openapi.json names it. */
  operationId: string;
  method: 'GET' | 'POST';
  path: `/api/${string}`;
  summary: string;
  /** Markdown. */
  description: string;
  /** The query schema the route validates with. */
  query?: z.ZodObject;
  /** The JSON body schema the route validates with. */
  body?: z.ZodObject;
  /** What each query parameter or body field means, beyond the type and rules its schema gives. */
  fields: Readonly<Record<string, string>>;
  /** A query or body the operation accepts: the request example and the curl line of /developers. */
  requestExample?: Readonly<Record<string, unknown>>;
  responses: Readonly<Record<number, ResponseDefinition>>;
  /** The quota each accepted call spends, or null for a read. */
  quota: QuotaName | null;
  /** Whether the body needs `captchaToken` where the captcha is on. */
  captcha: boolean;
  /** Cache-Control of the successful answers. */
  cacheControl: string;
  /** Set to deprecate the operation: the documents say so and its responses carry Deprecation and Sunset. */
  deprecation?: Deprecation;
  handle: Handler;
}

/** The origin the examples are written with; documents show the site's own instead. */
export const EXAMPLE_SITE = 'https://longhand.example';

/** An example with EXAMPLE_SITE replaced by `site` wherever it occurs. */
export function exampleFor(value: unknown, site: string): unknown {
  if (typeof value === 'string') return value.replaceAll(EXAMPLE_SITE, site);
  if (Array.isArray(value)) return value.map((item: unknown) => exampleFor(item, site));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, exampleFor(item, site)]));
  }
  return value;
}
