import { DOCUMENT_PATHS, MODERATION_PATH_PREFIX } from '../http/site-paths.ts';

/**
 * /robots.txt: every crawler may read everything, for search, AI input and AI
 * training alike, but the owner's moderation links, which are nobody's
 * reading. It names /sitemap.xml, the one entry whether it is the sitemap
 * or, once the site outgrows one, the index of several.
 */
export function robotsTxt(site: string): string {
  return `# Every crawler is welcome, and so is every use of what it reads.
User-agent: *
Content-Signal: search=yes, ai-input=yes, ai-train=yes
Allow: /
Disallow: ${MODERATION_PATH_PREFIX}

Sitemap: ${site}${DOCUMENT_PATHS.sitemap}
`;
}
