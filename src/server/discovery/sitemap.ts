import { DEFAULT_LANGUAGE, type LanguageCode } from '../../i18n/languages.ts';
import { escapeXml } from './xml.ts';

export interface SitemapPage {
  url: string;
  /** YYYY-MM-DD */
  lastmod?: string;
  /** The same page in each language it exists in (itself included), and `x-default`. */
  alternates: readonly { hreflang: string; url: string }[];
}

/**
 * One page in each of `languages`, each listing all of them as hreflang
 * alternates and the English one as `x-default`, as the pages' own heads do.
 */
export function translatedPages(
  site: string,
  pathFor: (lang: LanguageCode) => string,
  languages: readonly LanguageCode[],
  lastmod?: string,
): SitemapPage[] {
  const alternates = languages.map((lang) => ({ hreflang: lang, url: `${site}${pathFor(lang)}` }));
  const fallback = languages.includes(DEFAULT_LANGUAGE) ? [{ hreflang: 'x-default', url: `${site}${pathFor(DEFAULT_LANGUAGE)}` }] : [];
  return languages.map((lang) => ({
    url: `${site}${pathFor(lang)}`,
    ...(lastmod === undefined ? {} : { lastmod }),
    alternates: [...alternates, ...fallback],
  }));
}

function pageXml({ url, lastmod, alternates }: SitemapPage): string {
  const links = alternates.map(
    ({ hreflang, url: href }) => `\n    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(href)}"/>`,
  );
  return `  <url>
    <loc>${escapeXml(url)}</loc>${lastmod === undefined ? '' : `\n    <lastmod>${lastmod}</lastmod>`}${links.join('')}
  </url>`;
}

/** /sitemap.xml (sitemaps.org 0.9, with hreflang alternates as xhtml:link). */
export function sitemapXml(pages: readonly SitemapPage[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${pages.map(pageXml).join('\n')}
</urlset>
`;
}
