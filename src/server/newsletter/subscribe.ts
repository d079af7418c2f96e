/**
 * `POST /subscribe` (contract §9): an address and a language, from the
 * site's own pages (same origin), form-encoded as a form without JavaScript
 * posts it or as JSON. It passes the forms' spam defence (honeypot and
 * stamp, then the captcha where it is on) and the `subscriptions` quota of
 * the reader, in that order, so that a refusal spends no quota. The answer
 * is the same whether the address is new, pending or subscribed: the
 * confirmation email goes, or not (an hour of quiet after the last one),
 * after the answer. A form is answered with a redirect (303) to the page
 * saying to look in the inbox, in its language; JSON with 202.
 */
import { isLanguageCode, type LanguageCode } from '../../i18n/languages.ts';
import { refusal, type Refusal } from '../api-frame/refusals.ts';
import { verifyCaptcha } from '../captcha/captcha.ts';
import { NEWSLETTER_PATHS } from '../http/site-paths.ts';
import { identify, type CallerSource } from '../identity/caller.ts';
import { log } from '../observability/log.ts';
import { refusedHeaders } from '../quotas/headers.ts';
import { formVerdict } from '../spam/form-verdict.ts';
import { confirmationEmail } from './confirmation-email.ts';
import { subscriberLink } from './links.ts';
import type { Newsletter } from './newsletter-context.ts';
import { refusedPage } from './pages.ts';

/** No second confirmation email goes to an address within this time of the last. */
const QUIET_MS = 3600_000;
/** An address as a person types it, within the 254 characters SMTP carries. */
const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

interface Asked {
  email: string;
  lang: LanguageCode;
  formStamp?: string;
  honeypot?: string;
  captchaToken?: string;
}

type Read = { ok: true; asked: Asked; form: boolean } | { ok: false; refusal: Refusal; form: boolean };

/** The request's fields, from a form-encoded or a JSON body. */
async function readFields(request: Request): Promise<Read> {
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase();
  const form = type === 'application/x-www-form-urlencoded';
  let fields: Record<string, unknown>;
  if (form) fields = Object.fromEntries(new URLSearchParams(await request.text()));
  else if (type === 'application/json') {
    try {
      fields = (JSON.parse(await request.text()) ?? {}) as Record<string, unknown>;
    } catch {
      return { ok: false, refusal: refusal('invalid_json'), form };
    }
  } else
    return {
      ok: false,
      refusal: refusal('unsupported_media_type', 'Content-Type must be application/x-www-form-urlencoded or application/json'),
      form,
    };
  const text = (name: string): string | undefined => {
    const value = fields[name];
    return typeof value === 'string' ? value : undefined;
  };
  const email = text('email')?.trim() ?? '';
  if (email.length > 254 || !ADDRESS.test(email))
    return { ok: false, refusal: refusal('invalid_input', 'email: not an email address'), form };
  const lang = text('lang') ?? 'en';
  if (!isLanguageCode(lang)) return { ok: false, refusal: refusal('invalid_input', 'lang: not one of the site’s languages'), form };
  const optional = Object.fromEntries(
    (['formStamp', 'honeypot', 'captchaToken'] as const).flatMap((name) => (text(name) === undefined ? [] : [[name, text(name)]])),
  ) as Pick<Asked, 'formStamp' | 'honeypot' | 'captchaToken'>;
  return { ok: true, asked: { email, lang, ...optional }, form };
}

/** The checks before the store, in order; the refusal that ends the request, or null. */
async function refusalOf(newsletter: Newsletter, asked: Asked, caller: CallerSource): Promise<Refusal | null> {
  const { runtime } = newsletter;
  const form = formVerdict(asked, runtime.keys.formStamp, runtime.formMinSeconds, Date.now());
  if (form.verdict === 'spam') return form.refusal;
  const { address, hash } = identify(caller, runtime);
  const captcha = await verifyCaptcha(runtime.captcha, asked.captchaToken, {
    remoteAddress: address,
    altchaKeys: { challenge: runtime.keys.captchaChallenge, solution: runtime.keys.captchaSolution },
    spendOnce: (key, seconds) => runtime.quotas.spendOnce(key, seconds),
  });
  if (captcha) return captcha;
  const slot = await runtime.quotas.reserve('subscriptions', hash);
  if (!slot.admitted)
    return refusal(
      'quota_spent',
      'Quota reached for subscriptions; try again later',
      refusedHeaders('subscriptions', slot.retryAfterSeconds),
    );
  return null;
}

/** Sends the confirmation email, after the answer; a failure is logged without the address, and the reader may ask again. */
function confirm(newsletter: Newsletter, subscriber: { id: string; email: string; lang: LanguageCode }): void {
  const { runtime, mailer, siteName } = newsletter;
  const link = subscriberLink(newsletter.keys, runtime.site, 'confirm', subscriber.id);
  mailer.send({ to: subscriber.email, ...confirmationEmail(subscriber.lang, siteName, link) }, AbortSignal.timeout(15_000)).catch(() => {
    log().warn('[newsletter] a confirmation email was not sent; the reader may ask again in an hour');
  });
}

function refused(found: Refusal, form: boolean): Response {
  if (form) return refusedPage(found);
  const body = { error: found.message };
  return Response.json(body, { status: found.status, headers: { 'Cache-Control': 'no-store', ...found.headers } });
}

/** Answers `POST /subscribe`. */
export async function subscribe(newsletter: Newsletter, request: Request, caller: CallerSource): Promise<Response> {
  if (request.method !== 'POST') return new Response('Method not allowed\n', { status: 405, headers: { Allow: 'POST' } });
  if (request.headers.get('Origin') !== newsletter.runtime.site) return refused(refusal('cross_origin'), true);
  const read = await readFields(request);
  if (!read.ok) return refused(read.refusal, read.form);
  const found = await refusalOf(newsletter, read.asked, caller);
  if (found) return refused(found, read.form);
  const { subscriber, confirm: due } = await newsletter.runtime.store.askSubscription(read.asked.email, read.asked.lang, QUIET_MS);
  if (due) confirm(newsletter, subscriber);
  if (!read.form) return Response.json({ status: 'asked' }, { status: 202, headers: { 'Cache-Control': 'no-store' } });
  return new Response(null, {
    status: 303,
    headers: { Location: `${NEWSLETTER_PATHS.asked}?lang=${read.asked.lang}`, 'Cache-Control': 'no-store' },
  });
}
