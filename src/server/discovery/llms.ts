import { bulletList, developerLinks, howToReadAndAct, whatItIs, whenToUse } from './reading-guide.ts';
import type { IndexedArticle, SiteFacts } from './site-facts.ts';

/**
 * /llms.txt, per the llms.txt proposal: the site's name, a one-line summary,
 * what it is, when to use it, how to read and act, the documents for
 * developers, and the English articles, each linked to its Markdown twin.
 */
export function llmsTxt(facts: SiteFacts, articles: readonly IndexedArticle[]): string {
  const index = articles.map(({ title, url, excerpt }) => `[${title}](${url}.md): ${excerpt}`);
  return `# ${facts.name}

> ${facts.summary}

${whatItIs(facts)}

## When to use it

${bulletList(whenToUse(facts))}

## How to read and act

${bulletList(howToReadAndAct(facts))}

## Developers

${bulletList(developerLinks(facts))}

## Articles

${articles.length > 0 ? bulletList(index) : 'Nothing is published yet.'}
`;
}

/** /llms-full.txt: /llms.txt, then each article's Markdown twin, separated by rules. */
export function llmsFullTxt(llms: string, articleTwins: readonly string[]): string {
  return [llms, ...articleTwins].join('\n---\n\n');
}
