import type { LanguageCode } from '../../i18n/languages.ts';
import { escapeXml } from '../http/xml.ts';

/** One entry of an Atom feed: a comment, its text as HTML. */
export interface AtomEntry {
  /** A permanent IRI of its own: the comment's address on its article page. */
  id: string;
  title: string;
  /** RFC 3339. */
  updated: string;
  author: string;
  /**
   * The comment's text as the page shows it: the HTML of the comments' safe
   * renderer, sent escaped (`type="html"`), so a feed reader shows what the
   * page does and the feed stays well-formed whatever the text holds.
   */
  html: string;
  /** The article page it is read on. */
  url: string;
}

export interface AtomFeed {
  title: string;
  lang: LanguageCode;
  /** The feed's own URL, also its permanent id. */
  feedUrl: string;
  /** The page whose comments it carries. */
  pageUrl: string;
  /** RFC 3339: the newest entry's, or a fixed date when there is none. */
  updated: string;
  /** Newest first. */
  entries: readonly AtomEntry[];
}

function entryXml({ id, title, updated, author, html, url }: AtomEntry): string {
  return `  <entry>
    <id>${escapeXml(id)}</id>
    <title>${escapeXml(title)}</title>
    <updated>${updated}</updated>
    <author><name>${escapeXml(author)}</name></author>
    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>
    <content type="html">${escapeXml(html)}</content>
  </entry>`;
}

/** An Atom 1.0 feed (RFC 4287). */
export function atomFeed({ title, lang, feedUrl, pageUrl, updated, entries }: AtomFeed): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${lang}">
  <id>${escapeXml(feedUrl)}</id>
  <title>${escapeXml(title)}</title>
  <updated>${updated}</updated>
  <link rel="self" type="application/atom+xml" href="${escapeXml(feedUrl)}"/>
  <link rel="alternate" type="text/html" href="${escapeXml(pageUrl)}"/>
${entries.map(entryXml).join('\n')}
</feed>
`;
}
