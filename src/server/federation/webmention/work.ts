/**
 * The work a Webmention waits for, once claimed (worker.ts): a received one's
 * source verified, a sent one discovered and POSTed. Each resolves with the
 * mention as it is to be kept, null to remove it, or `failed` to try again
 * later.
 */
import type { ModerationMode } from '../../store/service.ts';
import type { Mention } from '../../store/types.ts';
import { endpointInHtml, readSource } from './h-entry.ts';
import { formPost, outbound, RefusedAddress, type Fetched, type OutboundOptions } from '../outbound.ts';

export type WorkOutcome = Mention | null | 'failed';

function isHtml(fetched: Fetched): boolean {
  return /^(text\/html|application\/xhtml\+xml)/i.test(fetched.headers['content-type'] ?? '');
}

/** A Link header's target whose rel names `webmention`, absolute; null when none does. */
function endpointInLink(fetched: Fetched): string | null {
  const header = fetched.headers.link;
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match?.[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (match && rels.includes('webmention')) return URL.parse(match[1] ?? '', fetched.url)?.href ?? null;
  }
  return null;
}

/** Runs `work`; an address refused becomes `refused`, any other error `failed`. */
async function guarded<T>(work: () => Promise<T>): Promise<T | 'refused' | 'failed'> {
  try {
    return await work();
  } catch (error) {
    return error instanceof RefusedAddress ? 'refused' : 'failed';
  }
}

/**
 * Verifies a received mention: its source, read now, links to its target.
 * One that answers 404, 410 or another 4xx (but 408 and 429), redirects more
 * than five times, no longer links, or whose address is refused is removed;
 * a verified one is shown (published), or waits for the owner under
 * MODERATION=first unless it was shown already.
 */
export async function verify(mention: Mention, options: OutboundOptions, moderation: ModerationMode): Promise<WorkOutcome> {
  const fetched = await guarded(() => outbound(mention.source, options));
  if (fetched === 'refused') return null;
  if (fetched === 'failed') return 'failed';
  // Redirected too often, or refused for good (404, 410 and the like): nothing links. Busy or broken: later.
  if (fetched.status >= 300 && fetched.status < 500 && fetched.status !== 408 && fetched.status !== 429) return null;
  if (fetched.status < 200 || fetched.status >= 300) return 'failed';
  const reading = isHtml(fetched)
    ? readSource(fetched.body, fetched.url, mention.target)
    : fetched.body.includes(mention.target)
      ? { kind: 'mention' as const, authorName: null, authorUrl: null, content: null }
      : null;
  if (!reading) return null;
  const status = mention.status === 'published' || moderation !== 'first' ? 'published' : 'waiting';
  return { ...mention, ...reading, status, settledAt: new Date().toISOString(), attempts: 0, dueAt: null };
}

/** The endpoint `target` advertises (Link header first, then its HTML), null when none; W3C Webmention's discovery. */
async function discover(target: string, options: OutboundOptions): Promise<string | null> {
  const fetched = await outbound(target, options);
  if (fetched.status < 200 || fetched.status >= 300) return null;
  return endpointInLink(fetched) ?? (isHtml(fetched) ? endpointInHtml(fetched.body, fetched.url) : null);
}

/**
 * Sends a mention of a link of an article: to the endpoint its target
 * advertises, once. A target with no endpoint, or refused, or an endpoint
 * that answers 4xx, is given up on (`refused`); a 5xx or no answer is tried
 * again later.
 */
export async function send(mention: Mention, options: OutboundOptions): Promise<WorkOutcome> {
  const settled = (status: 'sent' | 'refused'): Mention => ({ ...mention, status, settledAt: new Date().toISOString(), dueAt: null });
  const endpoint = await guarded(() => discover(mention.target, options));
  if (endpoint === 'failed') return 'failed';
  if (endpoint === 'refused' || endpoint === null) return settled('refused');
  const post = formPost({ source: mention.source, target: mention.target });
  const posted = await guarded(() => outbound(endpoint, { ...options, post }));
  if (posted === 'failed') return 'failed';
  if (posted === 'refused') return settled('refused');
  if (posted.status >= 200 && posted.status < 300) return settled('sent');
  return posted.status >= 400 && posted.status < 500 && posted.status !== 429 ? settled('refused') : 'failed';
}
