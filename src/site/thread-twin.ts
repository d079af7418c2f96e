import type { LanguageCode } from '../i18n/languages.ts';
import { uiStrings } from '../i18n/ui.ts';
import { commentHtml } from '../server/comment-markdown/comment-html.ts';
import { markdownFromHtml } from '../server/comment-markdown/markdown-from-html.ts';
import { THREAD_PAGE_PARAMETER, threadTwinPath } from '../server/http/site-paths.ts';
import { setting } from '../server/settings/environment.ts';
import type { ThreadComment } from '../server/threads/thread-views.ts';
import { authorNameIn, importedMarkIn } from './comment-authors.ts';
import { formatMoment, threadTitle } from './format.ts';
import { literalText, type TwinLink } from './markdown-twins.ts';
import type { AskedThread } from './thread-request.ts';

/** A score as a reader reads it: `+2`, `0`, `−1`. */
function signed(score: number): string {
  return score > 0 ? `+${score}` : score < 0 ? `−${-score}` : '0';
}

/**
 * A comment's text as its page shows it, in Markdown: the subset comments
 * render (what the page drops, the twin drops too, and raw HTML stays text),
 * each line indented into its list item.
 */
function bodyMarkdown(body: string, inside: string): string {
  return markdownFromHtml(commentHtml(body))
    .split('\n')
    .map((line) => (line === '' ? '' : `${inside}${line}`))
    .join('\n');
}

/** The line that signs a comment: its author's name (and where it was imported from), date and score. */
function signature(comment: ThreadComment, lang: LanguageCode): string {
  const imported = importedMarkIn(comment, lang);
  const name = `**${literalText(authorNameIn(comment, lang))}**${imported === null ? '' : ` (${literalText(imported)})`}`;
  return `${name} · ${formatMoment(comment.createdAt, lang)} · ${signed(comment.score)}`;
}

/**
 * One comment as a list item at `depth` (0 for a top-level one), its replies
 * under it: name, date and score, then its text.
 */
function commentItem(comment: ThreadComment, lang: LanguageCode, depth: number): string {
  const indent = '  '.repeat(depth);
  const inside = `${indent}  `;
  const said = comment.deleted ? uiStrings(lang)('thread.deleted') : `${signature(comment, lang)}\n\n${bodyMarkdown(comment.body, inside)}`;
  const replies = comment.replies.map((reply) => `\n${commentItem(reply, lang, depth + 1)}`).join('');
  return `${indent}- ${said}\n${replies}`;
}

/**
 * The Markdown twin of a page of an article's thread: the same comments as
 * the HTML fragment, in the same order, with the article's link and the next
 * page's.
 */
export function threadTwin({ lang, slug, article, view }: AskedThread): string {
  const t = uiStrings(lang);
  const { url } = threadTwinLink(slug, lang);
  const comments = view.comments.map((comment) => commentItem(comment, lang, 0)).join('\n');
  const next = view.nextPage === null ? '' : `\n[${t('thread.more')}](${url}?${THREAD_PAGE_PARAMETER}=${view.nextPage})\n`;
  return `# ${literalText(threadTitle(article.title, lang))}\n\n<${article.url}>\n\n${comments || t('thread.empty')}\n${next}`;
}

/** The link from an article's twin to its thread's: the thread's heading, the twin's absolute URL. */
export function threadTwinLink(slug: string, lang: LanguageCode): TwinLink {
  return { label: uiStrings(lang)('thread.heading'), url: `${setting('SITE_URL')}${threadTwinPath(slug, lang)}` };
}
