import MarkdownIt, { type Token } from 'markdown-it';

/** What every link of a comment carries: readers' links earn nothing, and the page they open gets no handle on ours. */
export const COMMENT_LINK_REL = 'nofollow ugc noopener';

/** The schemes a comment's link may have: anything else stays text. */
const LINK_SCHEMES = /^(?:https?:|mailto:)/i;

/**
 * How deep blocks and inline constructs nest on the page: what lies deeper
 * is left out of the page (the stored body keeps it). It bounds the markup
 * of a body of a thousand `>` or `-`; no reader quotes or lists that deep.
 */
const MAX_NESTING = 32;

/**
 * The parser: markdown-it with raw HTML off (tags are text), bare URLs made
 * links (linkify-it, with a scheme only: `README.md` stays text), single line
 * breaks kept, and without the constructs a comment does not render (images
 * would load a resource, tables and rules are not in the subset).
 */
const parser = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false, maxNesting: MAX_NESTING });
parser.disable(['image', 'table', 'hr']);
parser.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
parser.validateLink = (url) => LINK_SCHEMES.test(url);

/** A heading is shown as a paragraph of its text: a comment has no place in the page's outline. */
parser.renderer.rules['heading_open'] = () => '<p>';
parser.renderer.rules['heading_close'] = () => '</p>\n';

/**
 * The allow-list step, after parsing: every link is checked again against
 * the schemes (whichever rule made it: a link, a reference, an autolink,
 * linkify), given its rel, and stripped of anything but `href`; a link that
 * fails keeps its text and loses its tags. A code block loses its info
 * string, which would become a class. Runs on the tokens, so no rule of the
 * parser can produce a link this does not see.
 */
function allowOnly(tokens: Token[]): void {
  const refused: boolean[] = [];
  for (const token of tokens) {
    if (token.children) allowOnly(token.children);
    if (token.type === 'fence') token.info = '';
    else if (token.type === 'link_open') {
      const href = String(token.attrGet('href') ?? '');
      const allowed = LINK_SCHEMES.test(href);
      refused.push(!allowed);
      token.attrs = allowed
        ? [
            ['href', href],
            ['rel', COMMENT_LINK_REL],
          ]
        : null;
      if (!allowed) asNothing(token);
    } else if (token.type === 'link_close' && refused.pop() === true) asNothing(token);
  }
}

/** Makes a token render as nothing: its children, if any, still render. */
function asNothing(token: Token): void {
  token.type = 'text';
  token.tag = '';
  token.content = '';
}

parser.core.ruler.push('allow_only', (state) => {
  allowOnly(state.tokens);
});

/**
 * A comment's body, as typed (Markdown), as the HTML a page shows: paragraphs
 * and line breaks, emphasis, strong, strikethrough, code, block quotes, lists
 * and links (http, https and mailto only, each with COMMENT_LINK_REL). Raw
 * HTML is text, headings are paragraphs, images and everything else that
 * would run or load something are never made. Linear in the body's length.
 */
export function commentHtml(body: string): string {
  return parser.render(body);
}

/**
 * Where `text` holds addresses the renderer makes links of as they stand
 * (`https://…`), as the renderer finds them: text made Markdown leaves them
 * unescaped, since an escape inside one would become part of its address.
 */
export function bareLinks(text: string): readonly { index: number; lastIndex: number }[] {
  return parser.linkify.match(text) ?? [];
}
