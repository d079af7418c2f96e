import { fillIn } from './island.ts';

/** The response to a write from the site's forms, reduced to what a form shows. */
export type WriteOutcome =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; status: number; error: string; code: string | null; retryAfterSeconds: number | null; requestId: string | null };

type Refused = Extract<WriteOutcome, { ok: false }>;

/** Posts a form's JSON to one of the site's write operations. The browser adds the Origin header itself. */
export async function postJson(path: string, body: unknown): Promise<WriteOutcome> {
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { ok: false, status: 0, error: '', code: null, retryAfterSeconds: null, requestId: null };
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok) return { ok: true, body: answer };
  const retryAfter = Number(response.headers.get('Retry-After'));
  return {
    ok: false,
    status: response.status,
    error: typeof answer['error'] === 'string' ? answer['error'] : '',
    code: typeof answer['code'] === 'string' ? answer['code'] : null,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    requestId: typeof answer['requestId'] === 'string' ? answer['requestId'] : null,
  };
}

/** "in 3 hours", "2 days ago", in the page's language; negative seconds lie in the past. */
export function relativeTime(seconds: number, lang: string): string {
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  const size = Math.abs(seconds);
  const round = (unit: number) => Math.sign(seconds) * Math.ceil(size / unit);
  if (size < 90) return format.format(round(1), 'second');
  if (size < 90 * 60) return format.format(round(60), 'minute');
  if (size < 36 * 3600) return format.format(round(3600), 'hour');
  return format.format(round(86_400), 'day');
}

/** A refusal as a form says it: the message, and the field it is about when the response names one. */
export interface Refusal {
  message: string;
  field: string | null;
}

/**
 * Turns a refused write into the reader's language. `templates` are keyed by
 * the response's `code` where it has one the form knows (a refusal of spam
 * defence), else by status (`400`, `403`, `413`, `415`, `429`, `5xx`,
 * `offline`), and may hold
 * `{details}` (the response's own words), `{when}` (the wait of Retry-After:
 * a quota's, or a ban's) and `{id}` (the request id of a server failure).
 */
export function describeRefusal(outcome: Refused, templates: Readonly<Record<string, string>>, lang: string): Refusal {
  const byStatus = outcome.status === 0 ? 'offline' : outcome.status >= 500 ? '5xx' : String(outcome.status);
  const key = outcome.code !== null && templates[outcome.code] !== undefined ? outcome.code : byStatus;
  const values: Record<string, string> = {
    details: outcome.error,
    when: relativeTime(outcome.retryAfterSeconds ?? 3600, lang),
    id: outcome.requestId ?? '',
  };
  const template = templates[key] ?? templates['5xx'] ?? '';
  const field = outcome.status === 400 ? (/^(\w+):/.exec(outcome.error)?.[1] ?? null) : null;
  return { message: fillIn(template, values), field };
}
