/**
 * How deep a page's elements nest, read in one linear pass over its tags,
 * before an HTML parser reads it: parse5 (under microformats-parser) and
 * htmlparser2 take time that grows with the square of the nesting, or run
 * out of stack, on a page built to nest without end.
 */

/** Deeper than any page a person writes or a site generates; shallow enough that a parser reads a mebibyte of it at once. */
export const MOST_NESTING = 128;

/** Elements that never hold others, or that the next of their kind closes (`<p>`, `<li>`…): never counted as nesting. */
const NOT_NESTING = new Set([
  ...['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen'],
  ...['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'thead', 'tbody', 'tfoot', 'colgroup', 'caption'],
  ...['rb', 'rt', 'rtc', 'rp', 'html', 'head', 'body', '!doctype'],
]);
/** Elements whose content is text up to their end tag: a tag inside them is none. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const TAG_NAME = /^<(\/?)(!doctype|[a-z][a-z0-9-]*)/;

/**
 * Whether `html` opens elements more than MOST_NESTING deep (counting
 * every start tag that is not closed, but those of NOT_NESTING and those
 * written `<… />`). Linear in the length: each character is read a bounded
 * number of times, comments and raw text skipped by searching for their end.
 */
export function nestsTooDeep(html: string): boolean {
  const lower = html.toLowerCase();
  let depth = 0;
  let at = lower.indexOf('<');
  while (at !== -1) {
    if (lower.startsWith('<!--', at)) {
      const end = lower.indexOf('-->', at + 4);
      if (end === -1) return false;
      at = lower.indexOf('<', end + 3);
      continue;
    }
    const close = lower.indexOf('>', at + 1);
    if (close === -1) return false;
    const [, slash = '', name = ''] = TAG_NAME.exec(lower.slice(at, Math.min(close + 1, at + 40))) ?? [];
    let next = close + 1;
    if (name === '' || NOT_NESTING.has(name)) {
      // Not an element that nests: text, a void element, or one closed by its siblings.
    } else if (slash === '/') depth = Math.max(0, depth - 1);
    else if (lower.charAt(close - 1) !== '/') {
      depth += 1;
      if (depth > MOST_NESTING) return true;
      if (RAW_TEXT.has(name)) {
        const end = lower.indexOf(`</${name}`, next);
        if (end === -1) return false;
        next = end;
      }
    }
    at = lower.indexOf('<', next);
  }
  return false;
}
