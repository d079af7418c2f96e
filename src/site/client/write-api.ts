/** The answer to a write from the site's forms, reduced to what a form shows. */
export type WriteOutcome =
  { ok: true; body: Record<string, unknown> } | { ok: false; status: number; error: string; retryAfterSeconds: number | null };

/** Posts a form's JSON to one of the site's write operations. The browser adds the Origin header itself. */
export async function postJson(path: string, body: unknown): Promise<WriteOutcome> {
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { ok: false, status: 0, error: '', retryAfterSeconds: null };
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok) return { ok: true, body: answer };
  const retryAfter = Number(response.headers.get('Retry-After'));
  return {
    ok: false,
    status: response.status,
    error: typeof answer['error'] === 'string' ? answer['error'] : '',
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  };
}

/** "in 3 hours", "in 2 days", in the page's language. */
export function relativeTime(seconds: number, lang: string): string {
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  if (seconds < 90) return format.format(Math.ceil(seconds), 'second');
  if (seconds < 90 * 60) return format.format(Math.ceil(seconds / 60), 'minute');
  if (seconds < 36 * 3600) return format.format(Math.ceil(seconds / 3600), 'hour');
  return format.format(Math.ceil(seconds / 86_400), 'day');
}
