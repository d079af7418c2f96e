import { Parser } from 'htmlparser2';
import { bareLinks } from './comment-html.ts';

/** An element of the parsed HTML, with what the conversion reads of it. */
interface Element {
  name: string;
  href: string | null;
  children: (Element | string)[];
}

/** Elements whose content is no text a writer wrote. */
const SKIPPED = new Set(['script', 'style', 'template', 'head', 'title', 'noscript']);
/** Elements that hold paragraphs: each child paragraph of theirs is a block of its own. */
const BLOCKS = new Set([
  ...['p', 'div', 'section', 'article', 'header', 'footer', 'aside', 'main', 'nav', 'figure', 'figcaption', 'address'],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'dl', 'dt', 'dd', 'details', 'summary'],
]);
/** Elements that never have an end tag. */
const VOID = new Set(['br', 'hr', 'img', 'input', 'wbr', 'meta', 'link', 'source', 'area', 'col', 'embed', 'track', 'base']);
/** Elements nested deeper than this count as their content only: the Markdown's nesting stays within the renderer's. */
const MAX_DEPTH = 16;
/** Inline elements made Markdown, by the delimiter around their content. */
const DELIMITERS: Record<string, string> = { strong: '**', b: '**', em: '*', i: '*', del: '~~', s: '~~', strike: '~~' };

/** The HTML as a tree of the elements the conversion reads; skipped elements dropped, entities decoded. */
function parsed(html: string): Element {
  const root: Element = { name: '', href: null, children: [] };
  const open: Element[] = [root];
  let skipping = 0;
  let flattened = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const into = open.at(-1) ?? root;
        if (skipping > 0 || SKIPPED.has(name)) {
          if (!VOID.has(name)) skipping += 1;
          return;
        }
        const element: Element = { name, href: name === 'a' ? (attributes['href'] ?? '') : null, children: [] };
        if (name === 'img') element.children.push(attributes['alt'] ?? '');
        if (VOID.has(name)) into.children.push(element);
        else if (open.length > MAX_DEPTH) flattened += 1;
        else {
          into.children.push(element);
          open.push(element);
        }
      },
      ontext(text) {
        if (skipping > 0) return;
        // Text comes in pieces (an entity is one): joined, so that escaping sees what follows an `&`.
        const { children } = open.at(-1) ?? root;
        const last = children.at(-1);
        if (typeof last === 'string') children[children.length - 1] = last + text;
        else children.push(text);
      },
      onclosetag(name) {
        // htmlparser2 closes every element it opened, void ones at once, and ignores an end tag nothing opened.
        if (VOID.has(name)) return;
        if (skipping > 0) skipping -= 1;
        else if (flattened > 0) flattened -= 1;
        else open.pop();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return root;
}

/** Text as Markdown that shows it as it is: every character that could start markup escaped. */
function escaped(text: string): string {
  return text.replace(/[\\`*_~[\]<]/g, '\\$&').replace(/&(?=#?[0-9a-z]+;)/gi, '\\&');
}

/** Text outside a link as Markdown that shows it as it is, its bare addresses left as they are, to become links. */
function escapedAround(text: string): string {
  let markdown = '';
  let from = 0;
  for (const { index, lastIndex } of bareLinks(text)) {
    // The renderer links an address only after a character that cannot be part of its scheme (or at the start).
    if (/[a-z0-9.+-]/i.test(text.charAt(index - 1))) continue;
    markdown += escaped(text.slice(from, index)) + text.slice(index, lastIndex);
    from = lastIndex;
  }
  return markdown + escaped(text.slice(from));
}

/** A line of a paragraph, escaped where its start would open a block (a heading, a quote, a list, a heading's underline). */
function lineStartEscaped(line: string): string {
  if (/^[#>+=-]/.test(line)) return `\\${line}`;
  return line.replace(/^(\d{1,9})([.)])/, '$1\\$2');
}

/** The text of an element and everything in it, line breaks kept. */
function textOf(node: Element | string): string {
  if (typeof node === 'string') return node;
  return node.name === 'br' ? '\n' : node.children.map(textOf).join('');
}

/** A link's address as a Markdown destination: what would end it early or is not printable ASCII, percent-encoded (UTF-8). */
function destination(href: string): string {
  const bytes = new TextEncoder();
  return href.replace(/[^!-~]|[<>()\\]/gu, (character) =>
    [...bytes.encode(character)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/** Code as a code span, its delimiter longer than any run of backticks in it. */
function codeSpan(code: string): string {
  const text = code.replace(/\s+/g, ' ');
  if (text.trim() === '') return text;
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A preformatted element as a fenced code block, its fence longer than any run of backticks in it. */
function codeBlock(element: Element): string {
  const code = textOf(element).replace(/^\n/, '').replace(/\s+$/, '');
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${code}\n${fence}`;
}

/**
 * Inline pieces joined: a `!` that ends a piece of text and comes just
 * before a link is escaped, so that text and a link never make an image.
 */
function joinedInline(parts: readonly string[]): string {
  const joined: string[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const last = joined.at(-1);
    if (last !== undefined && part.startsWith('[') && endsInBang(joined)) joined[joined.length - 1] = `${last.slice(0, -1)}\\!`;
    joined.push(part);
  }
  return joined.join('');
}

/**
 * Whether the pieces, joined, would end with a `!` that no backslash
 * escapes: read from their end, piece by piece, never joined, so that
 * joining many pieces stays linear.
 */
function endsInBang(pieces: readonly string[]): boolean {
  let backslashes = -1;
  for (let piece = pieces.length - 1; piece >= 0; piece -= 1) {
    const text = pieces[piece] ?? '';
    for (let at = text.length - 1; at >= 0; at -= 1) {
      const character = text.charAt(at);
      if (backslashes === -1) {
        if (character !== '!') return false;
        backslashes = 0;
      } else if (character === '\\') backslashes += 1;
      else return backslashes % 2 === 0;
    }
  }
  return backslashes >= 0 && backslashes % 2 === 0;
}

/** The inline Markdown of `node`; `inLink` when inside a link already, where a link is its text. */
function inline(node: Element | string, inLink: boolean): string {
  if (typeof node === 'string') {
    const text = node.replace(/[ \t\n\r\f]+/g, ' ');
    return inLink ? escaped(text) : escapedAround(text);
  }
  if (node.name === 'br') return '\n';
  if (node.name === 'code') return codeSpan(textOf(node));
  const content = joinedInline(node.children.map((child) => inline(child, inLink || node.name === 'a')));
  const delimiter = DELIMITERS[node.name];
  if (delimiter !== undefined) {
    const [, before = '', inner = '', after = ''] = /^(\s*)([^]*?)(\s*)$/.exec(content) ?? [];
    return inner === '' ? content : `${before}${delimiter}${inner}${delimiter}${after}`;
  }
  if (node.name === 'a' && !inLink && node.href !== null && /^https?:\/\//i.test(node.href.trim())) {
    const href = node.href.trim();
    const text = content.trim() === '' ? escaped(href) : content.trim();
    return `[${text}](${destination(href)})`;
  }
  return BLOCKS.has(node.name) || node.name === 'li' ? `\n${content}\n` : content;
}

/** Lines prefixed: the first with `first`, the others with `rest` (empty lines with `rest` trimmed). */
function prefixed(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? first + line : line === '' ? rest.trimEnd() : rest + line))
    .join('\n');
}

/** The Markdown blocks of the children of a container element, in order. */
function blocks(container: Element): string[] {
  const out: string[] = [];
  let pieces: string[] = [];
  const flush = () => {
    const paragraph = joinedInline(pieces);
    const lines = paragraph.split('\n').map((line) => line.replace(/ {2,}/g, ' ').trim());
    const text = lines
      .filter((line) => line !== '')
      .map(lineStartEscaped)
      .join('\n');
    if (text !== '') out.push(text);
    pieces = [];
  };
  for (const child of container.children) {
    const block = typeof child === 'string' ? null : blockOf(child);
    if (block === null) pieces.push(inline(child, false));
    else {
      flush();
      out.push(...block);
    }
  }
  flush();
  return out;
}

/** The blocks an element makes when it is a block (a paragraph, a quote, a list, code), else null. */
function blockOf(element: Element): string[] | null {
  if (element.name === 'pre') return [codeBlock(element)];
  if (element.name === 'blockquote') {
    const quoted = blocks(element).join('\n\n');
    return quoted === '' ? [] : [prefixed(quoted, '> ', '> ')];
  }
  if (element.name === 'ul' || element.name === 'ol') {
    const items = element.children.filter((child): child is Element => typeof child !== 'string' && child.name === 'li');
    const list = items.map((item, index) => {
      const marker = element.name === 'ol' ? `${index + 1}. ` : '- ';
      return prefixed(blocks(item).join('\n\n'), marker, ' '.repeat(marker.length));
    });
    return list.length === 0 ? [] : [list.join('\n')];
  }
  return BLOCKS.has(element.name) || element.name === 'li' ? blocks(element) : null;
}

/**
 * HTML written elsewhere (a fediverse post's content, a comment imported
 * from another system) as a comment's Markdown, in the subset comments
 * render (comment-html.ts): paragraphs and line breaks, emphasis, strong,
 * strikethrough, code, block quotes, lists, and links to http and https
 * addresses as `[text](href)` (a mention or a hashtag is such a link, to its
 * profile or tag page). Anything else is its text, with every character
 * that could make markup escaped, so that text never becomes markup.
 * Parsed with htmlparser2, never matched with patterns.
 */
export function markdownFromHtml(html: string): string {
  return blocks(parsed(html)).join('\n\n');
}
