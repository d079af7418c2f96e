/**
 * The Markdown twins of pages: what an agent reads instead of the HTML, saying
 * the same things in the same order.
 */

export interface TwinArticleLink {
  title: string;
  url: string;
  meta: string;
  excerpt: string;
}

/** An article page: its title, its date and reading time, then the writer's own Markdown. */
export function articleTwin(title: string, meta: string, body: string): string {
  return `# ${title}\n\n${meta}\n\n${body.trim()}\n`;
}

/** A content page (projects): its title, then its Markdown. */
export function pageTwin(title: string, body: string): string {
  return `# ${title}\n\n${body.trim()}\n`;
}

/** The home page: the welcome, then the article list. */
export function homeTwin(
  title: string,
  body: string,
  listHeading: string,
  articles: readonly TwinArticleLink[],
  emptyText: string,
): string {
  const list =
    articles.length === 0
      ? emptyText
      : articles.map((article) => `- [${article.title}](${article.url}) (${article.meta}): ${article.excerpt}`).join('\n');
  return `# ${title}\n\n${body.trim()}\n\n## ${listHeading}\n\n${list}\n`;
}
