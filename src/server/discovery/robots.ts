import { DOCUMENT_PATHS } from '../http/site-paths.ts';

/** /robots.txt: every crawler may read everything, for search, AI input and AI training alike. */
export function robotsTxt(site: string): string {
  return `# Every crawler is welcome, and so is every use of what it reads.
User-agent: *
Content-Signal: search=yes, ai-input=yes, ai-train=yes
Allow: /

Sitemap: ${site}${DOCUMENT_PATHS.sitemap}
`;
}
