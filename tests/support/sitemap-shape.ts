/**
 * Reads a sitemap or a sitemap index the way the protocol (sitemaps.org 0.9)
 * describes them and throws on anything else: well-formed XML in UTF-8 with
 * its declaration, the right root and namespace, only the protocol's elements
 * (and xhtml:link alternates in a urlset), each <loc> an absolute http(s) URL
 * under 2,048 characters, each <lastmod> a W3C date, text escaped, and no
 * more than 50,000 entries or 52,428,800 bytes.
 */

interface Element {
  name: string;
  attributes: Record<string, string>;
  children: Element[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

function unescape(text: string, where: string): string {
  if (/[<>]/.test(text)) throw new Error(`unescaped < or > in ${where}`);
  return text.replace(/&([^;]*);?/g, (whole, entity: string) => {
    if (!whole.endsWith(';')) throw new Error(`a bare & in ${where}`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (entity in named) return named[entity] ?? '';
    const code = /^#(\d+)$/.exec(entity)?.[1] ?? /^#x([\da-f]+)$/i.exec(entity)?.[1];
    if (code === undefined) throw new Error(`an unknown entity &${entity}; in ${where}`);
    return String.fromCodePoint(entity.startsWith('#x') || entity.startsWith('#X') ? parseInt(code, 16) : Number(code));
  });
}

/** A strict reader of the small XML the sitemaps use: elements, attributes, text; no comments, CDATA or DTD. */
function parse(xml: string): Element {
  const declaration = /^<\?xml version="1\.0" encoding="utf-8"\?>\n/i.exec(xml);
  if (!declaration) throw new Error('no XML declaration with UTF-8');
  const root: Element = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: Element[] = [root];
  const tag = /<(\/?)([^\s/>]+)((?:\s+[^\s=]+="[^"]*")*)\s*(\/?)>/y;
  let at = declaration[0].length;
  while (at < xml.length) {
    const next = xml.indexOf('<', at);
    const text = xml.slice(at, next === -1 ? xml.length : next);
    const parent = stack.at(-1) as Element;
    parent.text += unescape(text, parent.name);
    if (next === -1) break;
    tag.lastIndex = next;
    const match = tag.exec(xml);
    if (!match) throw new Error(`not a tag at ${next}: ${xml.slice(next, next + 40)}`);
    const [whole, closing, name = '', attributeText = '', selfClosing] = match;
    if (!NAME.test(name)) throw new Error(`not an element name: ${name}`);
    if (closing) {
      const open = stack.pop();
      if (open?.name !== name || stack.length === 0) throw new Error(`</${name}> closes <${open?.name ?? 'nothing'}>`);
    } else {
      const attributes: Record<string, string> = {};
      for (const [, key = '', value = ''] of attributeText.matchAll(/([^\s=]+)="([^"]*)"/g)) {
        if (key in attributes) throw new Error(`attribute ${key} twice on <${name}>`);
        attributes[key] = unescape(value, `${name}@${key}`);
      }
      const element: Element = { name, attributes, children: [], text: '' };
      parent.children.push(element);
      if (!selfClosing) stack.push(element);
    }
    at = next + whole.length;
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)?.name ?? ''}> is never closed`);
  if (root.text.trim() !== '' || root.children.length !== 1) throw new Error('not exactly one root element');
  return root.children[0] as Element;
}

function assertOnly(element: Element, allowed: readonly string[]): void {
  for (const child of element.children) {
    if (!allowed.includes(child.name)) throw new Error(`<${child.name}> is not allowed in <${element.name}>`);
  }
  if (element.children.length > 0 && element.text.trim() !== '') throw new Error(`text beside elements in <${element.name}>`);
}

function one(element: Element, name: string, required: boolean): string | undefined {
  const found = element.children.filter((child) => child.name === name);
  if (found.length > 1 || (required && found.length === 0))
    throw new Error(`<${element.name}> needs ${required ? 'exactly' : 'at most'} one <${name}>`);
  const child = found[0];
  if (child && child.children.length > 0) throw new Error(`<${name}> holds elements`);
  return child?.text.trim();
}

function checkLoc(loc: string): string {
  const url = new URL(loc);
  if (!['http:', 'https:'].includes(url.protocol) || loc.length >= 2048) throw new Error(`not a sitemap URL: ${loc}`);
  return loc;
}

function checkLastmod(lastmod: string | undefined): void {
  if (lastmod !== undefined && !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(lastmod))
    throw new Error(`not a W3C date: ${lastmod}`);
}

function checkSize(xml: string, entries: number): void {
  if (entries > 50_000) throw new Error(`${entries} entries, more than 50,000`);
  if (Buffer.byteLength(xml) > 52_428_800) throw new Error('larger than 52,428,800 bytes');
}

/** The <loc> of every <url> of a sitemap, and each one's hreflang alternates; throws when it is not a valid sitemap. */
export function readUrlset(xml: string): { loc: string; alternates: Record<string, string> }[] {
  const root = parse(xml);
  if (root.name !== 'urlset' || root.attributes['xmlns'] !== SITEMAP_NS) throw new Error(`not a urlset of ${SITEMAP_NS}`);
  assertOnly(root, ['url']);
  checkSize(xml, root.children.length);
  const usesXhtml = root.attributes['xmlns:xhtml'] === XHTML_NS;
  return root.children.map((url) => {
    assertOnly(url, ['loc', 'lastmod', 'changefreq', 'priority', ...(usesXhtml ? ['xhtml:link'] : [])]);
    const loc = checkLoc(one(url, 'loc', true) ?? '');
    checkLastmod(one(url, 'lastmod', false));
    const changefreq = one(url, 'changefreq', false);
    if (changefreq !== undefined && !['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'].includes(changefreq))
      throw new Error(`not a changefreq: ${changefreq}`);
    const priority = one(url, 'priority', false);
    if (priority !== undefined && !/^(0(\.\d+)?|1(\.0+)?)$/.test(priority)) throw new Error(`not a priority: ${priority}`);
    const alternates: Record<string, string> = {};
    for (const link of url.children.filter((child) => child.name === 'xhtml:link')) {
      const { rel, hreflang, href } = link.attributes;
      if (rel !== 'alternate' || !hreflang || !href || hreflang in alternates) throw new Error(`a wrong alternate in ${loc}`);
      alternates[hreflang] = checkLoc(href);
    }
    return { loc, alternates };
  });
}

/** The <loc> of every sitemap a sitemap index lists; throws when it is not a valid sitemap index. */
export function readSitemapIndex(xml: string): string[] {
  const root = parse(xml);
  if (root.name !== 'sitemapindex' || root.attributes['xmlns'] !== SITEMAP_NS) throw new Error(`not a sitemapindex of ${SITEMAP_NS}`);
  assertOnly(root, ['sitemap']);
  checkSize(xml, root.children.length);
  return root.children.map((sitemap) => {
    assertOnly(sitemap, ['loc', 'lastmod']);
    checkLastmod(one(sitemap, 'lastmod', false));
    return checkLoc(one(sitemap, 'loc', true) ?? '');
  });
}
