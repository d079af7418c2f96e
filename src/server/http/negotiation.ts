import { isLanguageCode } from '../../i18n/languages.ts';
import { withoutTrailingSlashes } from './site-paths.ts';

interface MediaRange {
  type: string;
  q: number;
  /** 2 for type/subtype, 1 for type/*, 0 for * / *. */
  specificity: number;
  order: number;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part, order) => {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!range.includes('/')) return [];
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const specificity = range === '*/*' ? 0 : range.endsWith('/*') ? 1 : 2;
    return [{ type: range, q: Number.isFinite(q) ? q : 0, specificity, order }];
  });
}

function bestMatch(ranges: readonly MediaRange[], type: string): MediaRange | undefined {
  const [major] = type.split('/');
  return ranges
    .filter((range) => range.type === type || range.type === `${major}/*` || range.type === '*/*')
    .sort((a, b) => b.specificity - a.specificity)[0];
}

/**
 * Whether the caller asks for the Markdown twin rather than the HTML page:
 * `text/markdown` must rank above `text/html`; at equal quality an explicit
 * `text/markdown` wins over a wildcard, and among explicit ones the first listed.
 */
export function prefersMarkdown(accept: string | null | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const markdown = bestMatch(ranges, 'text/markdown');
  if (!markdown || markdown.q <= 0 || markdown.specificity < 2) return false;
  const html = bestMatch(ranges, 'text/html');
  if (!html || markdown.q > html.q) return true;
  if (markdown.q < html.q) return false;
  return html.specificity < 2 || markdown.order < html.order;
}

/**
 * The Markdown twin of a page path: `/` → `/index.md`, `/fr/` → `/fr/index.md`,
 * `/articles/x` → `/articles/x.md`. Null for a path that is a file already.
 */
export function twinPath(pathname: string): string | null {
  const path = withoutTrailingSlashes(pathname);
  if (/\.[a-z0-9]+$/i.test(path)) return null;
  if (path === '') return '/index.md';
  if (isLanguageCode(path.slice(1))) return `${path}/index.md`;
  return `${path}.md`;
}
