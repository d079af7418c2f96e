/**
 * WordPress's export (WXR, Tools → Export): an RSS document whose items are
 * posts, each with its `wp:comment` elements. `comment_approved` is 1
 * (approved), 0 (pending), `spam` or `trash`; `comment_content` is HTML;
 * `comment_type` `pingback` or `trackback` marks another site's notice of a
 * link, skipped whatever its approval.
 * The author's email and IP address are not read.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import type { ForeignComment, ForeignStatus } from './foreign.ts';

type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

const STATUSES: Record<string, ForeignStatus> = { '1': 'approved', '0': 'pending', spam: 'spam', trash: 'deleted' };

function field(element: Element, name: string): string {
  const found = DomUtils.getElementsByTagName(name, element.children, false, 1)[0];
  return found === undefined ? '' : DomUtils.textContent(found).trim();
}

function statusOf(element: Element): ForeignStatus {
  const type = field(element, 'wp:comment_type');
  if (type === 'pingback' || type === 'trackback') return type;
  return STATUSES[field(element, 'wp:comment_approved')] ?? 'pending';
}

function comment(element: Element, pageUrl: string): ForeignComment {
  const parent = field(element, 'wp:comment_parent');
  const url = field(element, 'wp:comment_author_url');
  const name = field(element, 'wp:comment_author');
  return {
    sourceId: field(element, 'wp:comment_id'),
    parentSourceId: parent === '' || parent === '0' ? null : parent,
    pageUrl,
    authorName: name === '' ? 'Anonymous' : name,
    authorUrl: /^https?:\/\//.test(url) ? url : null,
    createdAt: `${field(element, 'wp:comment_date_gmt').replace(' ', 'T')}Z`,
    body: { html: field(element, 'wp:comment_content') },
    status: statusOf(element),
  };
}

/** The comments of a WXR file's text, on the page each post's `link` names. */
export function readWordPress(text: string): ForeignComment[] {
  const document = parseDocument(text, { xmlMode: true });
  return DomUtils.getElementsByTagName('item', document.children).flatMap((item) => {
    const link = field(item, 'link');
    return DomUtils.getElementsByTagName('wp:comment', item.children, false).map((element) => comment(element, link));
  });
}
