import { DEFAULT_LANGUAGE, type LanguageCode } from '../../i18n/languages.ts';
import { escapeXml } from '../http/xml.ts';

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

/**
 * The most a sitemap may hold (sitemaps.org 0.9): 50,000 URLs and 50 MiB
 * (52,428,800 bytes) uncompressed. Past either, /sitemap.xml becomes a sitemap
 * index of several sitemaps. The test site is built with a smaller count
 * (tests/support/fixtures.ts), so these lines keep the form
 * `const NAME = <number>;`.
 */
const SITEMAP_MAX_URLS = 50_000;
const SITEMAP_MAX_BYTES = 52_428_800;

const URLSET_HEAD = `<?xml version="1.0" encoding="utf-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
`;
const URLSET_TAIL = `
</urlset>
`;

/** One sitemap (sitemaps.org 0.9, with hreflang alternates as xhtml:link). */
export function sitemapXml(pages: readonly SitemapPage[]): string {
  return `${URLSET_HEAD}${pages.map(pageXml).join('\n')}${URLSET_TAIL}`;
}

/**
 * `pages` cut into sitemaps that each stay within `maxUrls` URLs and
 * `maxBytes` bytes of UTF-8, in order, every page in exactly one. Always at
 * least one sitemap, empty when there is no page.
 */
export function splitSitemap(
  pages: readonly SitemapPage[],
  maxUrls: number = SITEMAP_MAX_URLS,
  maxBytes: number = SITEMAP_MAX_BYTES,
): SitemapPage[][] {
  const frame = Buffer.byteLength(URLSET_HEAD + URLSET_TAIL);
  const sitemaps: SitemapPage[][] = [[]];
  let bytes = frame;
  for (const page of pages) {
    const size = Buffer.byteLength(pageXml(page));
    if (frame + size > maxBytes) throw new Error(`${page.url} alone makes a sitemap larger than ${maxBytes} bytes`);
    const current = sitemaps.at(-1) ?? [];
    // Entries are joined by one newline.
    if (current.length === 0) {
      current.push(page);
      bytes += size;
    } else if (current.length >= maxUrls || bytes + 1 + size > maxBytes) {
      sitemaps.push([page]);
      bytes = frame + size;
    } else {
      current.push(page);
      bytes += 1 + size;
    }
  }
  return sitemaps;
}

/** The newest `lastmod` of some pages, if any has one. */
function newest(pages: readonly SitemapPage[]): string | undefined {
  return pages.reduce<string | undefined>(
    (latest, { lastmod }) => (lastmod !== undefined && (latest === undefined || lastmod > latest) ? lastmod : latest),
    undefined,
  );
}

/** A sitemap index (sitemaps.org 0.9) of the sitemaps at `urls`, each with its newest `lastmod`. */
export function sitemapIndexXml(sitemaps: readonly { url: string; pages: readonly SitemapPage[] }[]): string {
  const entries = sitemaps.map(({ url, pages }) => {
    const lastmod = newest(pages);
    return `  <sitemap>
    <loc>${escapeXml(url)}</loc>${lastmod === undefined ? '' : `\n    <lastmod>${lastmod}</lastmod>`}
  </sitemap>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries.join('\n')}
</sitemapindex>
`;
}
