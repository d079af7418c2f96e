/**
 * The newsletter's pages (contract §9), each in the subscriber's language:
 * the one a form's POST leads to, and those a subscriber's signed links
 * open. A link's GET shows what it would do and a button, and changes
 * nothing, so that a mail scanner that fetches it is harmless; the button
 * POSTs the page's own form (same origin), which does it. The unsubscribe
 * link also takes the RFC 8058 one-click POST a mail provider sends
 * (`List-Unsubscribe=One-Click`, no Origin): the signed link is what
 * authorises it. The unsubscribe link's page also offers another language
 * (its own form, same origin), so that a reader who wants the articles in
 * another language need not stop and subscribe again.
 */
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGES, languageOf, type LanguageCode } from '../../i18n/languages.ts';
import { NEWSLETTER_WORDS, type NewsletterWords } from '../../i18n/newsletter-words.ts';
import type { Refusal } from '../api-frame/refusals.ts';
import { NEWSLETTER_PATHS } from '../http/site-paths.ts';
import { LINK_PAGE_HEADERS, linkPage, paragraph } from '../http/link-page.ts';
import { escapeXml as escapeHtml } from '../http/xml.ts';
import type { Subscriber } from '../store/types.ts';
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

/** A POST's form fields, form-encoded or multipart; null for any other body, or none. */
async function formFields(request: Request): Promise<FormData | null> {
  try {
    return await request.formData();
  } catch {
    // Not a form's body: no field.
    return null;
  }
}

/** The language list of the unsubscribe page: another way than stopping, `current` chosen. */
function languageForm(words: NewsletterWords, current: LanguageCode): string {
  const options = LANGUAGES.map(
    ({ code, name, dir }) =>
      `<option value="${code}" lang="${code}" dir="${dir}"${code === current ? ' selected' : ''}>${escapeHtml(name)}</option>`,
  ).join('');
  return `<form method="post"><label>${escapeHtml(words.languageLabel)} <select name="lang">${options}</select></label> <button type="submit">${escapeHtml(words.languageButton)}</button></form>`;
}

/** What a subscriber's link names: the subscriber (null when gone or the token is not this site's), and the words of its language. */
interface Named {
  id: string | null;
  subscriber: Subscriber | null;
  lang: LanguageCode;
  named: (key: keyof NewsletterWords) => string;
}

/** The page a link's GET shows: what its button would do, and for the unsubscribe link the language list too. */
function askingPage(action: LinkAction, { subscriber, lang, named }: Named, status = 200): Response {
  const { ask, button, done } = ACTIONS[action];
  if (!subscriber) return page(404, lang, named(button), paragraph(named('linkInvalid')));
  if (action === 'confirm' && subscriber.status === 'confirmed') return page(200, lang, named(button), paragraph(named(done)));
  const form = `<form method="post"><button type="submit">${escapeHtml(named(button))}</button></form>`;
  const other = action === 'unsubscribe' ? languageForm(NEWSLETTER_WORDS[lang], lang) : '';
  return page(status, lang, named(button), paragraph(named(ask)) + form + other);
}

/** The language form's POST: the subscription's language changed, said in the new one. */
async function changeLanguage(newsletter: Newsletter, target: Named, chosen: FormDataEntryValue): Promise<Response> {
  if (!target.subscriber) return askingPage('unsubscribe', target);
  if (!isLanguageCode(chosen)) return askingPage('unsubscribe', target, 400);
  const changed = await newsletter.runtime.store.changeSubscriberLanguage(target.subscriber.id, chosen);
  if (!changed) return askingPage('unsubscribe', { ...target, subscriber: null });
  const words = NEWSLETTER_WORDS[chosen];
  return page(200, chosen, words.languageButton, paragraph(words.languageChanged.replaceAll('{site}', newsletter.siteName)));
}

/** A link's POST: from the page's form (same origin), or RFC 8058's one-click, which unsubscribes. */
async function act(newsletter: Newsletter, request: Request, action: LinkAction, target: Named): Promise<Response> {
  const { store, site } = newsletter.runtime;
  const { id, subscriber, lang, named } = target;
  const { ask, button, done } = ACTIONS[action];
  const fields = await formFields(request);
  const sameOrigin = request.headers.get('Origin') === site;
  if (!sameOrigin && !(action === 'unsubscribe' && fields?.get('List-Unsubscribe') === 'One-Click'))
    return page(403, lang, named(button), paragraph(named(ask)));
  const chosen = action === 'unsubscribe' && sameOrigin ? fields?.get('lang') : undefined;
  if (chosen !== undefined && chosen !== null) return changeLanguage(newsletter, target, chosen);
  // Unsubscribing what is gone already is done: a provider's second one-click, or the page's button pressed twice.
  if (!subscriber)
    return action === 'unsubscribe' && id !== null
      ? page(200, lang, named(button), paragraph(named(done)))
      : page(404, lang, named(button), paragraph(named('linkInvalid')));
  if (action === 'confirm') await store.confirmSubscriber(subscriber.id);
  else await store.removeSubscriber(subscriber.id);
  return page(200, lang, named(button), paragraph(named(done)));
}

/** A subscriber's link: its page (GET), or its action (POST). */
async function subscriberPage(newsletter: Newsletter, request: Request, action: LinkAction, token: string): Promise<Response> {
  const id = readSubscriberToken(newsletter.keys, action, token);
  const subscriber = id === null ? null : await newsletter.runtime.store.subscriber(id);
  const lang = subscriber?.lang ?? DEFAULT_LANGUAGE;
  const words = NEWSLETTER_WORDS[lang];
  const target: Named = { id, subscriber, lang, named: (key) => words[key].replaceAll('{site}', newsletter.siteName) };
  return request.method === 'POST' ? act(newsletter, request, action, target) : askingPage(action, target);
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
