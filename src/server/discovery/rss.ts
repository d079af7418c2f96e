import type { LanguageCode } from '../../i18n/languages.ts';
import { escapeXml } from '../http/xml.ts';

interface FeedItem {
  title: string;
  /** The article page's absolute URL. */
  url: string;
  /** YYYY-MM-DD */
  date: string;
  excerpt: string;
}

export interface Feed {
  title: string;
  description: string;
  lang: LanguageCode;
  /** The home page of the feed's language. */
  homeUrl: string;
  /** The feed's own URL. */
  feedUrl: string;
  /** Newest first. */
  items: readonly FeedItem[];
}

/** An RFC 822 date, as RSS 2.0 writes them: midnight UTC of a calendar date. */
function rfc822(date: string): string {
  return new Date(`${date}T00:00:00Z`).toUTCString();
}

function itemXml({ title, url, date, excerpt }: FeedItem): string {
  return `    <item>
      <title>${escapeXml(title)}</title>
      <link>${escapeXml(url)}</link>
      <guid isPermaLink="true">${escapeXml(url)}</guid>
      <pubDate>${rfc822(date)}</pubDate>
      <description>${escapeXml(excerpt)}</description>
    </item>`;
}

/** An RSS 2.0 feed of one language's articles. */
export function rssFeed({ title, description, lang, homeUrl, feedUrl, items }: Feed): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${escapeXml(title)}</title>
    <link>${escapeXml(homeUrl)}</link>
    <description>${escapeXml(description)}</description>
    <language>${lang}</language>
    <atom:link href="${escapeXml(feedUrl)}" rel="self" type="application/rss+xml"/>
${items.map(itemXml).join('\n')}
  </channel>
</rss>
`;
}
