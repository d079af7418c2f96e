import { COMMENT_BURST_BAN } from '../quotas/limits.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import type { SiteFacts } from './site-facts.ts';

/** /auth.md: there is no authentication, what that means for a request, and why writes need the site's own origin. */
export function authMd({ site, name }: SiteFacts): string {
  const { comments, windowSeconds, banSeconds } = COMMENT_BURST_BAN;
  return `# Authentication

There is no authentication. ${name} has no accounts, no API keys, no tokens and no OAuth server, and nothing to register for.

## What a request carries

Nothing: no \`Authorization\` header, no cookie, no key. Every operation in [the OpenAPI description](${site}${DOCUMENT_PATHS.openapi}) declares an empty security requirement (\`security: []\`), and no answer is ever a 401, or a 403 for a missing credential.

## Who you are

\`anonymous\` is the only identity type, as [the identity endpoint](${site}${DOCUMENT_PATHS.identity}) states. Readers are told apart only by a salted hash of their network address; the address itself is never stored, and a reader is shown by a colour-and-animal name derived from the hash. The same hash keys quotas and your own votes (\`GET /api/votes\`).

## Why writes need the site's own origin

Comments, votes, topic requests, bug reports and city submissions are the forms of the site's own pages. The API accepts a write only when its \`Origin\` header is \`${site}\`; anything else answers 403. Without accounts there is no credential to prove who posts, so the origin is what keeps other sites from posting in a visitor's name (cross-site request forgery) and scripts elsewhere from posting at all; per-reader quotas and, where enabled, a captcha do the rest. No credential lifts this rule. An agent that wants to write helps a person use the form on the page.

## Steps

None: there is no registration, claim, token exchange, credential use or revocation. A temporary ban (${banSeconds / 3600} hours, after ${comments} comments within ${windowSeconds / 60} minutes) expires on its own.

## Machine-readable

- [${site}${DOCUMENT_PATHS.identity}](${site}${DOCUMENT_PATHS.identity}): the identity document
- [${site}${DOCUMENT_PATHS.protectedResource}](${site}${DOCUMENT_PATHS.protectedResource}): protected-resource metadata (RFC 9728), with no bearer methods and no scopes
- [${site}${DOCUMENT_PATHS.authorizationServer}](${site}${DOCUMENT_PATHS.authorizationServer}): authorization-server metadata (RFC 8414), with no grant types
`;
}
