/**
 * The Markdown twins of pages: what an agent reads instead of the HTML, saying
 * the same things in the same order.
 */
import type { OutdatedNotice } from './translation-notice.ts';

export interface TwinArticleLink {
  title: string;
  url: string;
  meta: string;
  excerpt: string;
}

/** A link to another twin or page: its text, its absolute URL. */
export interface TwinLink {
  label: string;
  url: string;
}

/**
 * An article page: its title, its date and reading time, an outdated
 * translation's notice, the writer's own Markdown, then the link to its
 * thread's twin (heading and link), as the page ends with its thread.
 */
export function articleTwin(title: string, meta: string, body: string, notice: OutdatedNotice | null, thread: TwinLink): string {
  const said = notice ? `> ${notice.text} [${notice.linkText}](${notice.url})\n\n` : '';
  return `# ${title}\n\n${meta}\n\n${said}${body.trim()}\n\n## ${thread.label}\n\n<${thread.url}>\n`;
}

/**
 * A reader's text as Markdown shows it literally: on one line, the
 * characters that would make markup, a link or a heading escaped.
 */
export function literalText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_[\]<>#!|~&]/g, '\\$&');
}

/** A content page (projects): its title, then its Markdown. */
export function pageTwin(title: string, body: string): string {
  return `# ${title}\n\n${body.trim()}\n`;
}

/** The home page: the welcome, the latest articles, then the link to the archive that holds them all. */
export function homeTwin(
  title: string,
  body: string,
  listHeading: string,
  articles: readonly TwinArticleLink[],
  emptyText: string,
  archive: { label: string; url: string },
): string {
  const list = articles.length === 0 ? emptyText : articles.map(articleLine).join('\n');
  return `# ${title}\n\n${body.trim()}\n\n## ${listHeading}\n\n${list}\n\n[${archive.label}](${archive.url})\n`;
}

/** A page of a paged list (the archive): its title, the list, then the way to the neighbouring pages. */
export function listPageTwin(
  title: string,
  articles: readonly TwinArticleLink[],
  emptyText: string,
  steps: readonly { label: string; url: string }[],
): string {
  const list = articles.length === 0 ? emptyText : articles.map(articleLine).join('\n');
  // A paragraph of its own, not list items that would run on from the article list.
  const way = steps.length === 0 ? '' : `\n${steps.map((step) => `[${step.label}](${step.url})`).join(' · ')}\n`;
  return `# ${title}\n\n${list}\n${way}`;
}

function articleLine(article: TwinArticleLink): string {
  return `- [${article.title}](${article.url}) (${article.meta}): ${article.excerpt}`;
}
