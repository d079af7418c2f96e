/**
 * The newsletter's pages (contract §9), each in the subscriber's language:
 * the one a form's POST leads to, and those a subscriber's signed links
 * open. A link's GET shows what it would do and a button, and changes
 * nothing, so that a mail scanner that fetches it is harmless; the button
 * POSTs the page's own form (same origin), which does it. The unsubscribe
 * link also takes the RFC 8058 one-click POST a mail provider sends
 * (`List-Unsubscribe=One-Click`, no Origin): the signed link is what
 * authorises it.
 */
import { DEFAULT_LANGUAGE, isLanguageCode, languageOf, type LanguageCode } from '../../i18n/languages.ts';
import { NEWSLETTER_WORDS, type NewsletterWords } from '../../i18n/newsletter-words.ts';
import type { Refusal } from '../api-frame/refusals.ts';
import { NEWSLETTER_PATHS } from '../http/site-paths.ts';
import { LINK_PAGE_HEADERS, linkPage, paragraph } from '../http/link-page.ts';
import { escapeXml as escapeHtml } from '../http/xml.ts';
import { readSubscriberToken, type LinkAction } from './links.ts';
import type { Newsletter } from './newsletter-context.ts';

function page(status: number, lang: LanguageCode, title: string, content: string): Response {
  return linkPage(status, { lang, dir: languageOf(lang).dir }, title, content);
}

/** A refused subscription as a form's answer: what the refusal says, in English as the API says it. */
export function refusedPage({ status, message, headers }: Refusal): Response {
  const response = page(status, DEFAULT_LANGUAGE, message, paragraph(message));
  for (const [name, value] of Object.entries(headers ?? {})) response.headers.set(name, value);
  return response;
}

/** `/newsletter/asked?lang=…`: where a form's POST leads. */
function askedPage(url: URL): Response {
  const asked = url.searchParams.get('lang');
  const lang = isLanguageCode(asked) ? asked : DEFAULT_LANGUAGE;
  const words = NEWSLETTER_WORDS[lang];
  return page(200, lang, words.askedTitle, paragraph(words.askedBody));
}

const ACTIONS: Record<LinkAction, { ask: keyof NewsletterWords; button: keyof NewsletterWords; done: keyof NewsletterWords }> = {
  confirm: { ask: 'confirmAsk', button: 'confirmButton', done: 'confirmed' },
  unsubscribe: { ask: 'unsubscribeAsk', button: 'unsubscribeButton', done: 'unsubscribed' },
};

/** Whether a POST is the one-click unsubscribe of RFC 8058, as a mail provider sends it: form-encoded or multipart. */
async function isOneClick(request: Request): Promise<boolean> {
  try {
    return (await request.formData()).get('List-Unsubscribe') === 'One-Click';
  } catch {
    // Not a form's body: not a one-click.
    return false;
  }
}

/** A subscriber's link: its page (GET), or its action (POST). */
async function subscriberPage(newsletter: Newsletter, request: Request, action: LinkAction, token: string): Promise<Response> {
  const { runtime, siteName } = newsletter;
  const { store } = runtime;
  const id = readSubscriberToken(newsletter.keys, action, token);
  const subscriber = id === null ? null : await store.subscriber(id);
  const lang = subscriber?.lang ?? DEFAULT_LANGUAGE;
  const words = NEWSLETTER_WORDS[lang];
  const named = (key: keyof NewsletterWords) => words[key].replaceAll('{site}', siteName);
  const { ask, button, done } = ACTIONS[action];
  if (request.method === 'POST') {
    const sameOrigin = request.headers.get('Origin') === runtime.site;
    if (!sameOrigin && !(action === 'unsubscribe' && (await isOneClick(request))))
      return page(403, lang, named(button), paragraph(named(ask)));
    // Unsubscribing what is gone already is done: a provider's second one-click, or the page's button pressed twice.
    if (!subscriber)
      return action === 'unsubscribe' && id !== null
        ? page(200, lang, named(button), paragraph(named(done)))
        : page(404, lang, named(button), paragraph(words.linkInvalid));
    if (action === 'confirm') await store.confirmSubscriber(subscriber.id);
    else await store.removeSubscriber(subscriber.id);
    return page(200, lang, named(button), paragraph(named(done)));
  }
  if (!subscriber) return page(404, lang, named(button), paragraph(words.linkInvalid));
  if (action === 'confirm' && subscriber.status === 'confirmed') return page(200, lang, named(button), paragraph(named(done)));
  const form = `<form method="post"><button type="submit">${escapeHtml(named(button))}</button></form>`;
  return page(200, lang, named(button), paragraph(named(ask)) + form);
}

/** Answers a request under `/newsletter/`. */
export async function servePages(newsletter: Newsletter, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const allowed = url.pathname === NEWSLETTER_PATHS.asked ? ['GET', 'HEAD'] : ['GET', 'HEAD', 'POST'];
  if (!allowed.includes(request.method))
    return new Response('Method not allowed\n', {
      status: 405,
      headers: { ...LINK_PAGE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', Allow: allowed.join(', ') },
    });
  if (url.pathname === NEWSLETTER_PATHS.asked) return askedPage(url);
  for (const action of ['confirm', 'unsubscribe'] as const) {
    const prefix = NEWSLETTER_PATHS[action];
    if (url.pathname.startsWith(prefix)) return subscriberPage(newsletter, request, action, url.pathname.slice(prefix.length));
  }
  return page(404, DEFAULT_LANGUAGE, NEWSLETTER_WORDS.en.linkInvalid, '');
}
