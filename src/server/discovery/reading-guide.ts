import { LANGUAGE_CODES } from '../../i18n/languages.ts';
import { ARCHIVE_PAGE_SIZE, HOME_LATEST } from '../articles/lists.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import type { SiteFacts } from './site-facts.ts';
import { MIN_POPULATION_TEXT } from '../cities/min-population.ts';

/**
 * What the site is, and how an agent reads and acts on it: the same
 * sentences in /llms.txt and /agents.md.
 */

export function whatItIs({ name }: SiteFacts): string {
  return `${name} is a personal publication: essays and notes by one writer on writing, software, cities and languages. Each article is written in English and translated into up to ${LANGUAGE_CODES.length - 1} more languages. Every page also exists as plain Markdown, and a small public JSON API lists the articles, serves their text and searches a city index. There are no accounts and nothing to sign up for.`;
}

export function whenToUse({ name }: SiteFacts): string[] {
  return [
    `To read, quote or summarize an article of ${name}, in any of its ${LANGUAGE_CODES.length} languages.`,
    `To find what ${name} has published and when: the article index below, or \`GET /api/articles\`.`,
    `To look up a city of ${MIN_POPULATION_TEXT} or more inhabitants by name: \`GET /api/city-search?q=<name>\`.`,
  ];
}

export function howToReadAndAct(facts: SiteFacts): string[] {
  const { site } = facts;
  return [
    `Read the Markdown twins: every page has one at its URL with \`.md\` appended (\`${site}/articles/<slug>.md\`, \`${site}/fr/articles/<slug>.md\`, \`${site}/index.md\`), and every page URL answers Markdown when asked with \`Accept: text/markdown\`.`,
    `Browse the lists: \`${site}/index.md\` shows the latest ${HOME_LATEST} articles; \`${site}/archive.md\` lists every article, newest first, ${ARCHIVE_PAGE_SIZE} a page, each page linking the next (\`${site}/archive/2.md\`…, \`${site}/fr/archive.md\` in French).`,
    `Or connect an MCP client to ${site}${DOCUMENT_PATHS.mcp} (Streamable HTTP, stateless, no key): read-only tools (${facts.mcpTools.map((tool) => `\`${tool}\``).join(', ')}) and each article translation as a resource, its Markdown. The server's card is ${site}${DOCUMENT_PATHS.mcpServerCard}.`,
    `Or use the API, described in ${site}${DOCUMENT_PATHS.openapi}: \`GET ${site}/api/articles?lang=<code>\` lists the published articles, \`GET ${site}/api/articles?slug=<slug>&lang=<code>\` answers one with its Markdown. No key, token or cookie.`,
    `Languages: ${LANGUAGE_CODES.join(', ')}. English is the original; an article not yet translated is shown in English.`,
    `Writes (comments, votes, topic requests, bug reports, city submissions) are same-origin browser forms only: the API accepts them only with the \`Origin\` ${site}, so an agent acts by helping a person use the forms on the site's pages, never by posting from elsewhere (that answers 403). See ${site}${DOCUMENT_PATHS.auth}.`,
  ];
}

/** A Markdown list. */
export function bulletList(items: readonly string[]): string {
  return items.map((item) => `- ${item}`).join('\n');
}

/** The documents for developers and agents, each a Markdown link with what it holds. */
export function developerLinks({ site }: SiteFacts): string[] {
  const links = [
    {
      title: 'OpenAPI description',
      url: `${site}${DOCUMENT_PATHS.openapi}`,
      about: 'every API operation, with its parameters, answers, errors and headers',
    },
    {
      title: 'Developer documentation',
      url: `${site}${DOCUMENT_PATHS.developersMarkdown}`,
      about: 'each operation with a curl example, quotas, caching and the change log',
    },
    {
      title: 'MCP server',
      url: `${site}${DOCUMENT_PATHS.mcp}`,
      about: 'the same reads as tools and resources for MCP clients, over Streamable HTTP; its card at /mcp/server-card',
    },
    { title: 'Agent guide', url: `${site}${DOCUMENT_PATHS.agents}`, about: 'how to read and act on this site' },
    { title: 'Authentication', url: `${site}${DOCUMENT_PATHS.auth}`, about: "there is none, and why writes need the site's own origin" },
    { title: 'Full text', url: `${site}${DOCUMENT_PATHS.llmsFull}`, about: 'this index followed by every published English article' },
    {
      title: 'AI catalog',
      url: `${site}${DOCUMENT_PATHS.aiCatalog}`,
      about: 'the MCP server, the API and these documents for agents, as Agentic Resource Discovery lists them',
    },
  ];
  return links.map(({ title, url, about }) => `[${title}](${url}): ${about}`);
}
