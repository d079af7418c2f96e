/**
 * What a Webmention's source says (microformats2, read by
 * microformats-parser): whether it links to the target, and its h-entry's
 * author, text and kind. Nothing of its HTML is kept: text only. A page
 * that nests deeper than any page needs (nesting.ts) is read as saying
 * nothing: no parser is given it.
 */
import { Parser } from 'htmlparser2';
import { mf2 } from 'microformats-parser';
import type { Mention } from '../../store/types.ts';
import { nestsTooDeep } from './nesting.ts';

/** The longest text kept of a source: a long post is cut, as a comment's length is bounded. */
const MOST_TEXT = 2000;
const MOST_NAME = 200;

type Root = ReturnType<typeof mf2>['items'][number];
type Property = Root['properties'][string][number];

/** What a verified source gives its mention. */
export type SourceReading = Pick<Mention, 'kind' | 'authorName' | 'authorUrl' | 'content'>;

/** `href` resolved against `base`, without its fragment; null when it is no http(s) URL. */
function absolute(href: string, base: string): string | null {
  const url = URL.parse(href.trim(), base);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  url.hash = '';
  return url.href;
}

/** The href of every `<a>` and `<area>` in `html`, absolute. */
export function linksIn(html: string, base: string): Set<string> {
  const links = new Set<string>();
  const parser = new Parser({
    onopentag(name, attributes) {
      const href = attributes['href'];
      if ((name === 'a' || name === 'area') && href !== undefined) {
        const url = absolute(href, base);
        if (url) links.add(url);
      }
    },
  });
  parser.end(html);
  return links;
}

/** The page's microformats; null for a page microformats-parser refuses (one whose body holds no element). */
function microformatsOf(html: string, base: string): ReturnType<typeof mf2> | null {
  try {
    return mf2(html, { baseUrl: base });
  } catch {
    return null;
  }
}

function isRoot(value: Property | undefined): value is Root {
  return typeof value === 'object' && 'properties' in value;
}

/** A property's first value as text: a string, an embedded HTML's text, or a microformat's `value`. */
function textOf(value: Property | undefined): string | null {
  if (typeof value === 'string') return value;
  if (value && 'value' in value && typeof value.value === 'string') return value.value;
  return null;
}

/** The URLs a property names: plain URLs, or h-cites with a `url`. */
function urlsOf(root: Root, name: string, base: string): string[] {
  return (root.properties[name] ?? []).flatMap((value) => {
    const url = isRoot(value) ? textOf(value.properties['url']?.[0]) : textOf(value);
    const resolved = url === null ? null : absolute(url, base);
    return resolved ? [resolved] : [];
  });
}

/** The first h-entry of the document, at its top or in a feed. */
function firstEntry(items: readonly Root[]): Root | null {
  for (const item of items) {
    if (item.type?.includes('h-entry')) return item;
    const inside = firstEntry(item.children ?? []);
    if (inside) return inside;
  }
  return null;
}

function cut(text: string | null, most: number): string | null {
  const trimmed = text?.replace(/\s+/g, ' ').trim() ?? '';
  return trimmed === '' ? null : trimmed.slice(0, most);
}

/** The h-entry's author: an h-card's name and url, or a plain name or URL. */
function authorOf(entry: Root, base: string): Pick<Mention, 'authorName' | 'authorUrl'> {
  const author = entry.properties['author']?.[0];
  if (isRoot(author)) {
    const url = textOf(author.properties['url']?.[0]);
    return { authorName: cut(textOf(author.properties['name']?.[0]), MOST_NAME), authorUrl: url === null ? null : absolute(url, base) };
  }
  const text = textOf(author);
  const url = text === null ? null : URL.canParse(text) ? absolute(text, base) : null;
  return { authorName: url ? null : cut(text, MOST_NAME), authorUrl: url };
}

/**
 * What the source at `base` (where it was read, after redirects) says of
 * `target`: null when it does not link to it (by an `<a href>`, or an
 * h-entry property naming it); else its h-entry's kind (`in-reply-to`,
 * `like-of`, `repost-of` naming the target; a mention otherwise), author
 * and text (none for a like or a repost).
 */
export function readSource(html: string, base: string, target: string): SourceReading | null {
  if (nestsTooDeep(html)) return null;
  const entry = firstEntry(microformatsOf(html, base)?.items ?? []);
  const named = (name: string) => (entry ? urlsOf(entry, name, base).includes(target) : false);
  const kind = named('in-reply-to') ? 'reply' : named('like-of') ? 'like' : named('repost-of') ? 'repost' : 'mention';
  if (kind === 'mention' && !linksIn(html, base).has(target)) return null;
  if (!entry) return { kind, authorName: null, authorUrl: null, content: null };
  const text = textOf(entry.properties['content']?.[0]) ?? textOf(entry.properties['summary']?.[0]);
  const content = kind === 'like' || kind === 'repost' ? null : cut(text ?? textOf(entry.properties['name']?.[0]), MOST_TEXT);
  return { kind, ...authorOf(entry, base), content };
}

/** The Webmention endpoint a page names in its HTML (`<link>` or `<a>` with rel="webmention", the first), absolute; null when none. */
export function endpointInHtml(html: string, base: string): string | null {
  if (nestsTooDeep(html)) return null;
  const named = microformatsOf(html, base)?.rels['webmention']?.[0];
  return named === undefined ? null : absolute(named, base);
}
