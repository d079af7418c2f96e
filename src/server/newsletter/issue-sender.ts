/**
 * The newsletter's sender (docs/architecture.md, "Appearances and the
 * newsletter"): one email every 60 s / NEWSLETTER_RATE, taken from the
 * store's queue by the instance that holds the newsletter's turn, so that
 * the rate holds across instances. An issue is claimed under a lease before
 * its email and marked sent after it: a process killed in between leaves it
 * to be claimed again when the lease runs out (delivery is at least once,
 * and at most once more for that one email). A failed send is given back
 * with a backoff; a send cut short by a stop is given back as it was.
 * Addresses are never logged: nor are the SMTP server's messages, which
 * may quote them.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_LANGUAGE, type LanguageCode } from '../../i18n/languages.ts';
import { articlePath, todayUtc, type Article, type Catalog } from '../articles/catalog.ts';
import { log } from '../observability/log.ts';
import type { NewsletterStore } from '../store/roles.ts';
import type { NewsletterIssue } from '../store/types.ts';
import { issueEmail } from './issue-email.ts';
import { subscriberLink, type LinkKeys } from './links.ts';
import type { Mailer } from './mailer.ts';
import { retryAt } from '../store/outbox.ts';
import { startPolling } from '../runtime/polling.ts';

/** The most one send may take; one that takes longer fails and is tried again later. */
const SEND_TIMEOUT_MS = 15_000;
/** How long a claimed issue is held before another sender may take it: a send to its deadline, and more. */
const LEASE_MS = 4 * SEND_TIMEOUT_MS;
/** How long the turn lasts unless renewed: a send to its deadline, and a few passes. */
const TURN_MS = 2 * SEND_TIMEOUT_MS;
const BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 6 * 3600_000;
/** How long a sent issue is kept (NewsletterStore.pruneIssues): far past any handing again of its appearance. */
const SENT_KEPT_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 3600_000;

export interface NewsletterSenderOptions {
  store: NewsletterStore;
  catalog: Catalog;
  mailer: Mailer;
  site: string;
  siteName: string;
  /** The address of NEWSLETTER_FROM, for the `mailto:` of List-Unsubscribe. */
  fromAddress: string;
  keys: LinkKeys;
  perMinute: number;
}

/** The SMTP failure as it may be logged: its code and status, never its text. */
function failureOf(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return [typeof code === 'string' ? code : 'error', typeof responseCode === 'number' ? String(responseCode) : ''].join(' ').trim();
}

/**
 * The article an issue sends to a reader of `readerLang`: the translation
 * that appeared, which is theirs or the English original. Queued before the
 * reader changed language (the unsubscribe page's list), it is neither:
 * then their new language's translation where it is visible, else the
 * original, so that the email's words and its article agree.
 */
async function articleFor(catalog: Catalog, issue: NewsletterIssue, readerLang: LanguageCode): Promise<Article | null> {
  const visible = catalog.on(todayUtc());
  if (issue.lang === readerLang || issue.lang === DEFAULT_LANGUAGE) return visible.read(issue.slug, issue.lang);
  return (await visible.read(issue.slug, readerLang)) ?? visible.read(issue.slug, DEFAULT_LANGUAGE);
}

/** Sends one claimed issue; resolves with what became of it. */
async function sendIssue(options: NewsletterSenderOptions, issue: NewsletterIssue, signal: AbortSignal): Promise<'sent' | 'skipped'> {
  const { store, catalog, mailer, site, siteName, fromAddress, keys } = options;
  const subscriber = await store.subscriber(issue.subscriberId);
  const article = subscriber && (await articleFor(catalog, issue, subscriber.lang));
  // Unsubscribed since it was queued, or the article gone with a deploy: nothing to send, kept as settled.
  if (!subscriber || subscriber.status !== 'confirmed' || !article) return 'skipped';
  const links = {
    page: `${site}${articlePath(issue.slug, subscriber.lang)}`,
    unsubscribe: subscriberLink(keys, site, 'unsubscribe', subscriber.id),
    mailto: `mailto:${fromAddress}?subject=unsubscribe`,
  };
  await mailer.send({ to: subscriber.email, ...issueEmail(article, subscriber.lang, links, siteName) }, signal);
  return 'sent';
}

/** Starts sending; the returned stop takes no issue more and resolves once the send under way is settled. */
export function startNewsletterSender(options: NewsletterSenderOptions): () => Promise<void> {
  const { store } = options;
  const holder = randomUUID();
  const stopping = new AbortController();
  let prunedAt = 0;
  const once = async (): Promise<void> => {
    if (!(await store.newsletterTurn(holder, TURN_MS))) return;
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await store.pruneIssues(new Date(prunedAt - SENT_KEPT_MS).toISOString());
    }
    const [issue] = await store.claimIssues(1, LEASE_MS);
    if (!issue) return;
    try {
      const outcome = await sendIssue(options, issue, AbortSignal.any([AbortSignal.timeout(SEND_TIMEOUT_MS), stopping.signal]));
      await store.issuesSent([issue]);
      if (outcome === 'sent') log().info('[newsletter] an article email was sent');
    } catch (error) {
      if (stopping.signal.aborted) {
        await store.issuesReleased([issue]);
        return;
      }
      log().warn(`[newsletter] an article email was not sent (${failureOf(error)}); tried again later`);
      await store.issuesFailed([issue], retryAt(issue.attempts, BACKOFF_MS, MAX_BACKOFF_MS));
    }
  };
  const polling = startPolling(
    once,
    Math.ceil(60_000 / options.perMinute),
    (error) => {
      log().error('[newsletter] the queue could not be read or updated; tried again shortly', {}, error);
    },
    stopping,
  );
  return async () => {
    await polling.stop();
    // A turn renewed for no time ends now: the next instance to start sends at once, not a turn later.
    await store.newsletterTurn(holder, 0).catch(() => undefined);
    options.mailer.close();
  };
}
