import type { LanguageCode } from '../i18n/languages.ts';
import { readerNameIn } from '../i18n/reader-names.ts';
import { uiStrings } from '../i18n/ui.ts';
import { THREAD_PAGE_PARAMETER, threadTwinPath } from '../server/http/site-paths.ts';
import { setting } from '../server/settings/environment.ts';
import type { ThreadComment } from '../server/threads/thread-views.ts';
import { formatMoment, threadTitle } from './format.ts';
import { literalText, type TwinLink } from './markdown-twins.ts';
import type { AskedThread } from './thread-request.ts';

/** A score as a reader reads it: `+2`, `0`, `−1`. */
function signed(score: number): string {
  return score > 0 ? `+${score}` : score < 0 ? `−${-score}` : '0';
}

/**
 * One comment as a list item at `depth` (0 for a top-level one), its replies
 * under it: name, date and score, then its text, each line kept, as literal text.
 */
function commentItem(comment: ThreadComment, lang: LanguageCode, depth: number): string {
  const indent = '  '.repeat(depth);
  const inside = `\n${indent}  `;
  const said = comment.deleted
    ? uiStrings(lang)('thread.deleted')
    : `**${literalText(readerNameIn(comment.author, lang))}** · ${formatMoment(comment.createdAt, lang)} · ${signed(comment.score)}` +
      `${inside}${inside}${comment.body
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map(literalText)
        .join(`\\${inside}`)}`;
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
