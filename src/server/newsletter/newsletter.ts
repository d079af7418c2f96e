/**
 * The newsletter as the server runs it when NEWSLETTER is on: the mailer,
 * the sender of queued articles, the forgetting of unconfirmed addresses,
 * and the answers to `/subscribe` and the
 * pages under `/newsletter/`.
 */
import type { Catalog } from '../articles/catalog.ts';
import { NEWSLETTER_PATHS } from '../http/site-paths.ts';
import type { CallerSource } from '../identity/caller.ts';
import { log } from '../observability/log.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { LinkKeys } from './links.ts';
import { newsletterMailer } from './mailer.ts';
import { servePages } from './pages.ts';
import type { Newsletter } from './newsletter-context.ts';
import { startNewsletterSender } from './issue-sender.ts';
import { subscribe } from './subscribe.ts';

/** The address part of a sender such as `Name <a@b.example>`. */
function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

/** How long an unconfirmed address is kept: the confirmation email says so. */
const UNCONFIRMED_KEPT_MS = 7 * 86_400_000;
/** How often the unconfirmed addresses past it are forgotten. */
const FORGET_EVERY_MS = 3600_000;

/** Forgets, at start and then every hour, the addresses not confirmed within 7 days; returns the stop. */
function forgetUnconfirmed(runtime: Runtime): () => void {
  const forget = () => {
    runtime.store.forgetUnconfirmed(new Date(Date.now() - UNCONFIRMED_KEPT_MS).toISOString()).then(
      (forgotten) => {
        if (forgotten > 0) log().info(`[newsletter] ${forgotten} unconfirmed address(es) forgotten after 7 days`);
      },
      (error: unknown) => {
        log().error('[newsletter] the unconfirmed addresses could not be forgotten; tried again in an hour', {}, error);
      },
    );
  };
  forget();
  const timer = setInterval(forget, FORGET_EVERY_MS);
  return () => {
    clearInterval(timer);
  };
}

/** Opens the mailer and starts the sender and the forgetting of unconfirmed addresses; `stop` ends the sender within its grace and lets go of the SMTP connection. */
export async function startNewsletter(
  runtime: Runtime,
  catalog: Catalog,
  siteName: string,
  settings: { smtpUrl: string; from: string; perMinute: number },
): Promise<{ newsletter: Newsletter; stop: () => Promise<void> }> {
  const mailer = await newsletterMailer(settings.smtpUrl, settings.from);
  const keys: LinkKeys = { confirm: runtime.keys.newsletterConfirm, unsubscribe: runtime.keys.newsletterUnsubscribe };
  const stop = startNewsletterSender({
    store: runtime.store,
    catalog,
    mailer,
    site: runtime.site,
    siteName,
    fromAddress: addressOf(settings.from),
    keys,
    perMinute: settings.perMinute,
  });
  const stopForgetting = forgetUnconfirmed(runtime);
  return {
    newsletter: { runtime, mailer, keys, siteName },
    stop: () => {
      stopForgetting();
      return stop();
    },
  };
}

/** Answers `/subscribe` and every path under `/newsletter/`. */
export function serveNewsletter(newsletter: Newsletter, request: Request, caller: Omit<CallerSource, 'request'>): Promise<Response> {
  if (new URL(request.url).pathname !== NEWSLETTER_PATHS.subscribe) return servePages(newsletter, request);
  return subscribe(newsletter, request, { ...caller, request: { header: (name) => request.headers.get(name) } });
}
