import { LANGUAGES, languageOf, type LanguageCode } from '../../i18n/languages.ts';
import { LLMS_LATEST } from '../articles/lists.ts';
import { archivePath, DOCUMENT_PATHS, languageLlmsPath } from '../http/site-paths.ts';
import { bulletList, developerLinks, howToReadAndAct, whatItIs, whenToUse } from './reading-guide.ts';
import type { IndexedArticle, SiteFacts } from './site-facts.ts';

/**
 * The latest LLMS_LATEST of `articles` (newest first), each linked to its
 * Markdown twin, and where the older ones are: an index stays the same size
 * however long the archive grows (docs/architecture.md, "Content and lists").
 */
function articleIndex(site: string, lang: LanguageCode, articles: readonly IndexedArticle[]): string {
  if (articles.length === 0) return 'Nothing is published yet.';
  const index = bulletList(articles.slice(0, LLMS_LATEST).map(({ title, url, excerpt }) => `[${title}](${url}.md): ${excerpt}`));
  if (articles.length <= LLMS_LATEST) return index;
  return `${index}\n\nOlder articles are in [the archive](${site}${archivePath(lang)}.md), newest first, each page linking the next.`;
}

/**
 * /llms.txt, per the llms.txt proposal: the site's name, a one-line summary,
 * what it is, when to use it, how to read and act, the documents for
 * developers, the llms.txt of each language, and the latest English
 * articles, each linked to its Markdown twin.
 */
export function llmsTxt(facts: SiteFacts, articles: readonly IndexedArticle[]): string {
  const languages = LANGUAGES.map(
    ({ code, name }) => `[${name}](${facts.site}${languageLlmsPath(code)}): the articles in ${name} (\`${code}\`)`,
  );
  return `# ${facts.name}

> ${facts.summary}

${whatItIs(facts)}

## When to use it

${bulletList(whenToUse(facts))}

## How to read and act

${bulletList(howToReadAndAct(facts))}

## Developers

${bulletList(developerLinks(facts))}

## Languages

${bulletList(languages)}

## Articles

${articleIndex(facts.site, 'en', articles)}
`;
}

/**
 * `/<code>/llms.txt`: one language's articles, newest first, titled in that
 * language where translated and in English otherwise (as the API lists
 * them), each linked to its Markdown twin.
 */
export function languageLlmsTxt(facts: SiteFacts, lang: LanguageCode, articles: readonly IndexedArticle[]): string {
  const { name } = languageOf(lang);
  return `# ${facts.name}: ${name}

> ${facts.summary}

The articles of ${facts.name} in ${name} (\`${lang}\`), newest first, each linked to its Markdown. An article not yet translated into ${name} is listed in English. What the site is, how to read it and its other languages: [${DOCUMENT_PATHS.llms}](${facts.site}${DOCUMENT_PATHS.llms}).

## Articles

${articleIndex(facts.site, lang, articles)}
`;
}

/** /llms-full.txt: /llms.txt, then each article's Markdown twin, separated by rules. */
export function llmsFullTxt(llms: string, articleTwins: readonly string[]): string {
  return [llms, ...articleTwins].join('\n---\n\n');
}
