import { languageOf, type LanguageCode } from '../../i18n/languages.ts';
import { NEWSLETTER_WORDS } from '../../i18n/newsletter-words.ts';
import type { Article } from '../articles/catalog.ts';
import { escapeXml as escapeHtml } from '../http/xml.ts';
import { articleHtml } from './article-html.ts';
import type { NewsletterEmail } from './mailer.ts';

/** What an article's email says besides the article: where to read it, and how to stop. */
export interface IssueLinks {
  /** The article's page in the subscriber's language (the English original shows there where untranslated). */
  page: string;
  /** The subscriber's signed unsubscribe link, which also takes the one-click POST. */
  unsubscribe: string;
  /** `mailto:` the sender, for mail readers that unsubscribe by email. */
  mailto: string;
}

/** The anchor of an article page's thread (src/components/CommentThread.astro). */
const THREAD_ANCHOR = '#thread-heading';

/** `dir` and `lang` of an element holding text of `lang`. */
function languageAttributes(lang: LanguageCode): string {
  return `lang="${lang}" dir="${languageOf(lang).dir}"`;
}

/**
 * The email of one article to one subscriber of `readerLang`: its title as
 * the subject, the article whole in a plain-text part (its Markdown) and an
 * HTML part, the link to its page and thread, and the unsubscribe link; and
 * the line saying the translation is missing when the article is the English
 * original sent to a reader of another language. Its list headers name the
 * site (`List-Id`) and its unsubscribe links.
 */
export function issueEmail(article: Article, readerLang: LanguageCode, links: IssueLinks, siteName: string): Omit<NewsletterEmail, 'to'> {
  const words = NEWSLETTER_WORDS[readerLang];
  const missing = article.lang !== readerLang ? words.missing : null;
  const thread = `${links.page}${THREAD_ANCHOR}`;
  const text = [
    article.title,
    ...(missing ? [missing] : []),
    article.content.trim(),
    `${words.readOn} ${thread}`,
    `${words.unsubscribeLine} ${links.unsubscribe}`,
  ].join('\n\n');
  const html = `<!doctype html>
<html ${languageAttributes(readerLang)}>
<head><meta charset="utf-8"><title>${escapeHtml(article.title)}</title></head>
<body>
${missing ? `<p><em>${escapeHtml(missing)}</em></p>\n` : ''}<article ${languageAttributes(article.lang)}>
<h1>${escapeHtml(article.title)}</h1>
${articleHtml(article.content, links.page)}
</article>
<p>${escapeHtml(words.readOn)} <a href="${escapeHtml(thread)}">${escapeHtml(links.page)}</a></p>
<p><a href="${escapeHtml(links.unsubscribe)}">${escapeHtml(words.unsubscribeButton)}</a></p>
</body>
</html>
`;
  return {
    subject: article.title,
    text,
    html,
    list: { unsubscribe: [links.unsubscribe, links.mailto], id: { url: `newsletter.${new URL(links.page).hostname}`, comment: siteName } },
  };
}
