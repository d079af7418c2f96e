import { API_VERSION, RATE_LIMIT_POLICY } from '../api-frame/api-headers.ts';

/** A response header as /openapi.json and /developers describe it. */
interface HeaderDoc {
  description: string;
  schema: { type: 'string' | 'integer'; minimum?: number };
  example: string | number;
}

/** Headers every `/api` answer carries (src/server/api-frame/frame.ts). */
export const FRAME_HEADERS = ['API-Version', 'RateLimit-Policy'] as const;

/** Headers of a write that spent a quota, and of every 429. */
export const QUOTA_HEADERS = ['RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;

export type ResponseHeaderName =
  | (typeof FRAME_HEADERS)[number]
  | (typeof QUOTA_HEADERS)[number]
  | 'Deprecation'
  | 'Sunset'
  | 'Cache-Control'
  | 'ETag'
  | 'Retry-After'
  | 'X-Request-Id';

export const RESPONSE_HEADERS: Record<ResponseHeaderName, HeaderDoc> = {
  'API-Version': {
    description: 'The API version (semantic versioning), equal to info.version of /openapi.json.',
    schema: { type: 'string' },
    example: API_VERSION,
  },
  'RateLimit-Policy': {
    description: 'Every enforced quota: `"<name>";q=<quota>;w=<window seconds>`.',
    schema: { type: 'string' },
    example: RATE_LIMIT_POLICY,
  },
  'Cache-Control': {
    description: 'How long a browser or a shared cache may keep the answer.',
    schema: { type: 'string' },
    example: 'no-store',
  },
  ETag: {
    description: 'Validator of the answer; send it back in If-None-Match to get a 304 while it is unchanged.',
    schema: { type: 'string' },
    example: '"2hUOjxNbXi3UnD8hVjAnH1cK8rS0uU1WkTqA7jOOyy0"',
  },
  RateLimit: {
    description: 'The quota this write spent: `"<name>";r=<remaining>;t=<window seconds>`.',
    schema: { type: 'string' },
    example: '"comments";r=99;t=86400',
  },
  'RateLimit-Limit': { description: 'Writes the quota allows per window.', schema: { type: 'integer', minimum: 1 }, example: 100 },
  'RateLimit-Remaining': { description: 'Writes left in the window.', schema: { type: 'integer', minimum: 0 }, example: 99 },
  'RateLimit-Reset': {
    description: 'The window length in seconds: windows slide, so this is the longest wait before the quota is whole again.',
    schema: { type: 'integer', minimum: 1 },
    example: 86400,
  },
  'Retry-After': {
    description: 'Seconds to wait before writing again (during a ban, the ban’s remaining time).',
    schema: { type: 'integer', minimum: 1 },
    example: 3600,
  },
  'X-Request-Id': {
    description: 'Identifies the failure in the server log; equal to `requestId` in the body.',
    schema: { type: 'string' },
    example: '0b6c1f7e-3f5a-4a63-9f0e-2d8c4b1a7e55',
  },
  Deprecation: {
    description: 'RFC 9745: the operation is deprecated since this date (`@<unix seconds>`).',
    schema: { type: 'string' },
    example: '@1803859200',
  },
  Sunset: {
    description: 'RFC 8594: the operation is removed at this date (an HTTP-date).',
    schema: { type: 'string' },
    example: 'Tue, 01 Jun 2027 00:00:00 GMT',
  },
};
