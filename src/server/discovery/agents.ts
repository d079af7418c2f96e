import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import { bulletList, developerLinks, howToReadAndAct, whatItIs, whenToUse } from './reading-guide.ts';
import type { SiteFacts } from './site-facts.ts';

/** A YAML front matter: each value a double-quoted string, which YAML reads exactly as JSON writes it. */
function frontMatter(fields: Readonly<Record<string, string>>): string {
  return `---\n${Object.entries(fields)
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
    .join('\n')}\n---`;
}

/** /agents.md: the guide for software agents, with the facts they need first in its front matter. */
export function agentsMd(facts: SiteFacts): string {
  const { site, name } = facts;
  return `${frontMatter({
    name,
    description: facts.summary,
    url: site,
    api: `${site}${DOCUMENT_PATHS.openapi}`,
    mcp: `${site}${DOCUMENT_PATHS.mcp}`,
    auth: 'none',
    identity: `${site}${DOCUMENT_PATHS.identity}`,
    documentation: `${site}${DOCUMENT_PATHS.developers}`,
    llms: `${site}${DOCUMENT_PATHS.llms}`,
  })}

# ${name} for agents

${whatItIs(facts)}

## When to use it

${bulletList(whenToUse(facts))}

## How to read and act

${bulletList(howToReadAndAct(facts))}

## Limits

- Reads consume no quota and are cached as their \`Cache-Control\` says; send \`If-None-Match\` with the \`ETag\` you hold to get a 304.
- Writes are counted per reader in sliding windows and refused with 429 and \`Retry-After\` past their quota; every \`/api\` answer states the quotas in \`RateLimit-Policy\`.
- Every error is JSON \`{ "error": "…" }\`; an unknown \`/api\` path answers 404 with links to the documentation.

## Documents

${bulletList(developerLinks(facts))}
`;
}
