/**
 * Every refusal the server answers, in one table: its code, its status and
 * what it means (the message when the refuser gives none). A refusal whose
 * entry is `told` names its code in the body beside its message: the site's
 * forms say it in the reader's language (src/site/refusal-strings.ts), and
 * /openapi.json lists those codes. The others are known by their status.
 */
const CATALOGUE = {
  honeypot: { status: 400, meaning: 'honeypot: this field is for robots and must stay empty', told: true },
  too_fast: { status: 400, meaning: 'Sent sooner after the form was shown than a person writing would', told: true },
  form_stamp: { status: 400, meaning: 'formStamp: not a stamp this site made; reload the page', told: true },
  too_many_links: { status: 400, meaning: 'The text holds more links than it may', told: true },
  repeated_comment: { status: 400, meaning: 'body: the same text as your previous comment; write something new', told: true },
  captcha_missing: { status: 400, meaning: 'captchaToken is required', told: true },
  captcha_rejected: { status: 400, meaning: 'The captcha token was rejected', told: true },
  cross_origin: { status: 403, meaning: 'Not sent from the site’s own pages', told: false },
  unsupported_media_type: { status: 415, meaning: 'Content-Type must be application/json', told: false },
  body_too_large: { status: 413, meaning: 'The body is too large', told: false },
  invalid_json: { status: 400, meaning: 'The body is not valid JSON', told: false },
  invalid_input: { status: 400, meaning: 'A field does not hold what it must', told: false },
  not_found: { status: 404, meaning: 'Nothing here', told: false },
  link_invalid: { status: 400, meaning: 'Link not valid', told: false },
  link_expired: { status: 410, meaning: 'Link expired', told: false },
  method_not_allowed: { status: 405, meaning: 'Not a method this path answers', told: false },
  wrong_host: { status: 421, meaning: 'Not an address this server answers', told: false },
  burst_banned: { status: 429, meaning: 'Too many comments in a short time: writing is paused for now', told: false },
  owner_banned: { status: 429, meaning: 'Writing is paused for this reader', told: false },
  quota_spent: { status: 429, meaning: 'The quota is spent; try again later', told: false },
  too_many_requests: { status: 429, meaning: 'Too many requests; try again later', told: false },
  server_busy: { status: 503, meaning: 'The server is answering as many requests as it takes at once', told: false },
  quotas_unavailable: { status: 503, meaning: 'The rate limits could not be checked; try again shortly', told: false },
  captcha_misconfigured: { status: 500, meaning: 'The captcha is misconfigured on the server', told: false },
  captcha_unreachable: { status: 502, meaning: 'The captcha provider could not be reached', told: false },
} as const satisfies Record<string, { status: number; meaning: string; told: boolean }>;

export type RefusalCode = keyof typeof CATALOGUE;

/** The codes a refusal's body names, in the catalogue's order. */
export type ToldCode = { [Code in RefusalCode]: (typeof CATALOGUE)[Code]['told'] extends true ? Code : never }[RefusalCode];

export const REFUSAL_CODES = Object.entries(CATALOGUE)
  .filter(([, entry]) => entry.told)
  .map(([code]) => code) as unknown as readonly [ToldCode, ...ToldCode[]];

/** A request refused: its status and code from the catalogue, the message that says why, and headers (Retry-After…). */
export interface Refusal {
  readonly status: number;
  readonly code: RefusalCode;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The refusal `code`, saying `message` (its catalogue meaning when none is given). */
export function refusal(code: RefusalCode, message: string = CATALOGUE[code].meaning, headers?: Record<string, string>): Refusal {
  const { status } = CATALOGUE[code];
  return headers === undefined ? { status, code, message } : { status, code, message, headers };
}

/** Whether a refusal's body names its code. */
export function isTold(code: RefusalCode): code is ToldCode {
  return CATALOGUE[code].told;
}
