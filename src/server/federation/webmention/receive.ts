/**
 * `POST /webmention` (contract §8): a form-encoded `source` and `target`,
 * checked and kept as a mention to verify, answered 202 at once. Nothing
 * is fetched here: the source is read later (worker.ts). A bad request is
 * answered 400, a spent quota (QUOTAS, `webmention-source` for the source's
 * host, `webmention-reader` for the caller) 429, a store that does not
 * answer 503.
 */
import { identify, type CallerSource } from '../../identity/caller.ts';
import { readerHash } from '../../identity/reader-hash.ts';
import { newMention } from '../../store/records.ts';
import type { Mention } from '../../store/types.ts';
import { visibleArticleAt, type FederationData } from '../data.ts';
import { articlePageOf } from '../paths.ts';

/** The longest URL taken for either parameter. */
const MOST_URL = 2048;

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });
}

/** An http(s) URL of at most MOST_URL characters, without its fragment; null for anything else. */
function webUrl(value: string | null): URL | null {
  const url = value !== null && value.length <= MOST_URL ? URL.parse(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  url.hash = '';
  return url;
}

/** The mention a form asks for, or the refusal's text. */
function askedMention(data: FederationData, form: URLSearchParams): Pick<Mention, 'source' | 'target' | 'articleSlug' | 'lang'> | string {
  const source = webUrl(form.get('source'));
  const target = webUrl(form.get('target'));
  if (!source) return 'source: not an http(s) URL';
  if (!target) return 'target: not an http(s) URL';
  if (source.href === target.href) return 'source and target are the same';
  const page = articlePageOf(target.pathname);
  const slug = visibleArticleAt(data, target);
  if (!page || slug === null || !data.content.catalog.languagesOf(slug).includes(page.lang))
    return 'target: not an article page of this site';
  // Named as the site names it: the verification looks for this address in the source.
  return { source: source.href, target: `${data.site}${target.pathname}`, articleSlug: slug, lang: page.lang };
}

/** Takes one mention from `name`'s quota for `key`; the seconds to wait when spent. */
async function spent(data: FederationData, name: 'webmention-source' | 'webmention-reader', key: string): Promise<number | null> {
  const result = await data.writes.quotas.reserve(name, readerHash(`${name} ${key}`, data.writes.salt));
  return result.admitted ? null : result.retryAfterSeconds;
}

/** Keeps the mention due for verification now: a new one unverified, one known already as it is shown until then. */
async function keep(data: FederationData, asked: Pick<Mention, 'source' | 'target' | 'articleSlug' | 'lang'>): Promise<void> {
  const kept = await data.store.findMention(asked);
  if (kept?.direction === 'received') {
    await data.store.replaceMention({ ...kept, attempts: 0, dueAt: new Date().toISOString() });
    return;
  }
  if (kept) return;
  await data.store.addMention(newMention(asked, 'received'));
}

/** Answers a `POST /webmention`; `kept` is told when a mention waits for verification. */
export async function receiveWebmention(
  data: FederationData,
  request: Request,
  caller: Omit<CallerSource, 'request'>,
  kept: () => void,
): Promise<Response> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return plain(400, 'Send source and target form-encoded');
  const asked = askedMention(data, new URLSearchParams(await request.text()));
  if (typeof asked === 'string') return plain(400, asked);
  try {
    const reader = identify({ ...caller, request: { header: (name) => request.headers.get(name) } }, data.writes).hash;
    const wait =
      (await spent(data, 'webmention-source', new URL(asked.source).hostname)) ?? (await spent(data, 'webmention-reader', reader));
    if (wait !== null) return plain(429, 'Too many Webmentions: send again later', { 'Retry-After': String(wait) });
    await keep(data, asked);
  } catch {
    return plain(503, 'Webmentions cannot be taken now: send again later', { 'Retry-After': '60' });
  }
  kept();
  return plain(202, 'Accepted: the source will be verified');
}
