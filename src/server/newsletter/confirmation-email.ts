import { languageOf, type LanguageCode } from '../../i18n/languages.ts';
import { NEWSLETTER_WORDS } from '../../i18n/newsletter-words.ts';
import { escapeXml as escapeHtml } from '../http/xml.ts';
import type { NewsletterEmail } from './mailer.ts';

/**
 * The confirmation email, in the language the subscription was asked in:
 * what was asked, the signed link whose page confirms, and what happens
 * when nobody does.
 */
export function confirmationEmail(lang: LanguageCode, siteName: string, link: string): Omit<NewsletterEmail, 'to'> {
  const words = NEWSLETTER_WORDS[lang];
  const named = (text: string) => text.replaceAll('{site}', siteName);
  const subject = named(words.confirmSubject);
  const text = [named(words.confirmBody), link, words.confirmIgnore].join('\n\n');
  const html = `<!doctype html>
<html lang="${lang}" dir="${languageOf(lang).dir}">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body>
<p>${escapeHtml(named(words.confirmBody))}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(words.confirmButton)}</a></p>
<p>${escapeHtml(words.confirmIgnore)}</p>
</body>
</html>
`;
  return { subject, text, html };
}
