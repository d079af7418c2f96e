/**
 * Webmention's worker (docs/architecture.md, "Federation"): takes due
 * mentions from the store under a lease, whichever instance is free, and
 * verifies a received one's source or sends a sent one (work.ts), a few at
 * a time. A failure is tried again with a backoff, and given up on after
 * about two days: a received one never verified is then removed, one
 * verified before stays as it was, a sent one is refused. Nothing here runs in a reader's request.
 */
import { markdownToHtml } from 'satteri';
import type { LanguageCode } from '../../../i18n/languages.ts';
import { articlePath } from '../../articles/catalog.ts';
import { log } from '../../observability/log.ts';
import { retryAt } from '../../store/outbox.ts';
import { newMention } from '../../store/records.ts';
import type { Mention } from '../../store/types.ts';
import { visibleToday, type FederationData } from '../data.ts';
import { eachAtMost } from '../deliverer.ts';
import { startPolling } from '../../runtime/polling.ts';
import { linksIn } from './h-entry.ts';
import { send, verify } from './work.ts';

const CLAIMED_AT_ONCE = 16;
/** Mentions worked on at once. */
const AT_ONCE = 4;
/** Longer than the two requests a sent mention makes, each within its time limit (outbound.ts). */
const LEASE_MS = 60_000;
const POLL_MS = 2000;
const BACKOFF_MS = 60_000;
const MOST_BACKOFF_MS = 6 * 3600_000;
/** Failures after which the work is given up on: about two days of tries. */
const MOST_ATTEMPTS = 14;
/** Links of one article sent a mention, at most. */
const MOST_LINKS = 50;

export interface MentionWorker {
  /** Looks for due mentions now rather than at the next poll. */
  wake(): void;
  /** Takes nothing more; resolves once the work under way is settled or aborted. */
  stop(): Promise<void>;
}

/**
 * Queues a mention from the translation's page to each http(s) link of its
 * text off this site, each once however often it is asked (MentionStore's
 * addMention); resolves with how many were queued.
 */
export async function queueSentMentions(data: FederationData, slug: string, lang: LanguageCode): Promise<number> {
  const article = await visibleToday(data).read(slug, lang);
  if (!article || article.lang !== lang) return 0;
  const source = new URL(articlePath(slug, lang), data.site).href;
  const links = [...linksIn(markdownToHtml(article.content).html, source)].filter(
    (link) => new URL(link).origin !== new URL(data.site).origin,
  );
  let queued = 0;
  for (const target of links.slice(0, MOST_LINKS)) {
    const mention = newMention({ source, target, articleSlug: slug, lang }, 'sent');
    if (await data.store.addMention(mention)) queued += 1;
  }
  return queued;
}

/** Starts the worker over `data`; `allowPrivate` is FEDERATION_ALLOW_PRIVATE_ADDRESSES. */
export function startMentionWorker(data: FederationData, allowPrivate: boolean): MentionWorker {
  const { store } = data;
  const stopping = new AbortController();

  const settle = async (mention: Mention): Promise<void> => {
    const options = { allowPrivate, signal: stopping.signal };
    const outcome =
      mention.direction === 'received' ? await verify(mention, options, data.writes.moderation) : await send(mention, options);
    if (stopping.signal.aborted) return;
    if (outcome === null) {
      await store.removeMention(mention);
      log().info('[webmention] a received mention was removed: its source is gone, does not link, or its address is refused');
    } else if (outcome !== 'failed') {
      await store.replaceMention(outcome);
      log().info(`[webmention] a ${outcome.direction} mention is now ${outcome.status}`);
    } else if (mention.attempts + 1 < MOST_ATTEMPTS)
      await store.replaceMention({
        ...mention,
        attempts: mention.attempts + 1,
        dueAt: retryAt(mention.attempts, BACKOFF_MS, MOST_BACKOFF_MS),
      });
    else if (mention.direction === 'sent') await store.replaceMention({ ...mention, status: 'refused', dueAt: null });
    else if (mention.status === 'unverified') await store.removeMention(mention);
    else await store.replaceMention({ ...mention, dueAt: null });
  };

  const work = async (): Promise<void> => {
    while (!polling.stopped) {
      const claimed = await store.claimMentions(CLAIMED_AT_ONCE, LEASE_MS);
      if (claimed.length === 0) return;
      await eachAtMost(claimed, AT_ONCE, (mention) =>
        settle(mention).catch((error: unknown) => {
          log().warn('[webmention] a mention could not be settled; tried again when its lease ends', {}, error);
        }),
      );
    }
  };

  const polling = startPolling(
    work,
    POLL_MS,
    (error: unknown) => {
      log().error('[webmention] the mentions could not be read; tried again shortly', {}, error);
    },
    stopping,
  );
  return polling;
}
