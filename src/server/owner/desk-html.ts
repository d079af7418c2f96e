import { createHash } from 'node:crypto';
import { escapeXml } from '../http/xml.ts';

/**
 * The desk's pages are put together as HTML text here: a few small pages an
 * owner reads, with every reader-written value escaped (a comment's text is
 * the HTML of the comments' safe renderer), forms that work
 * without JavaScript, and a stylesheet that the Content-Security-Policy
 * names by its hash.
 */

/** An HTML fragment: only what `html` builds, so that nothing reaches a page unescaped by accident. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** A template whose values are escaped, unless they are fragments already (or arrays of them). */
export function html(strings: TemplateStringsArray, ...values: (string | number | Html | readonly Html[] | null)[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    if (value instanceof Html) text += value.text;
    else if (typeof value === 'string' || typeof value === 'number') text += escapeXml(String(value));
    else if (value !== null) text += value.map((part) => part.text).join('');
    text += strings[index + 1] ?? '';
  });
  return new Html(text);
}

const STYLE = `
:root { color-scheme: light dark; --text: #1d1d1f; --muted: #5c5c66; --background: #fdfcf8; --surface: #f2f0e8; --accent: #9a3b14; --border: #dcd8cc; }
@media (prefers-color-scheme: dark) { :root { --text: #e8e6e1; --muted: #a9a6a0; --background: #16161a; --surface: #222228; --accent: #f0a070; --border: #3a3a42; } }
body { margin: 0 auto; max-width: 56rem; padding: 0 1rem 3rem; font: 1rem/1.5 system-ui, sans-serif; color: var(--text); background: var(--background); }
a { color: var(--accent); }
nav ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; padding: 1rem 0; margin: 0; border-bottom: 1px solid var(--border); }
nav a[aria-current="page"] { color: var(--text); font-weight: 700; }
.notice { padding: 0.5rem 1rem; background: var(--surface); border-inline-start: 4px solid var(--accent); }
.notice:empty { display: none; }
form.filters { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; }
form.filters label, form.answer label { display: grid; gap: 0.25rem; font-weight: 600; }
input, select, button { font: inherit; color: var(--text); background: var(--background); border: 1px solid var(--border); border-radius: 0.3rem; padding: 0.35rem 0.6rem; }
button { background: var(--accent); color: var(--background); border: none; font-weight: 600; cursor: pointer; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
ol.items { list-style: none; padding: 0; }
ol.items > li { border-bottom: 1px solid var(--border); padding: 0.75rem 0; }
.meta { color: var(--muted); font-size: 0.9rem; font-weight: 400; margin: 0; }
.text { overflow-wrap: anywhere; margin: 0.4rem 0; }
.text > * { margin-block: 0.4rem; }
.text pre { white-space: pre-wrap; background: var(--surface); padding: 0.4rem 0.6rem; }
.text blockquote { margin-inline: 0; padding-inline-start: 0.75rem; border-inline-start: 3px solid var(--border); }
.state { font-weight: 700; color: var(--text); }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
.actions form { margin: 0; }
dl.counts { display: grid; grid-template-columns: max-content auto; gap: 0.25rem 1rem; }
dl.counts dd { margin: 0; }
`;

/** The Content-Security-Policy of every desk page: nothing but this stylesheet, forms that post here, no framing. */
export const DESK_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

export interface PageFrame {
  title: string;
  /** The path of the navigation link that is this page. */
  current: string;
  /** What the last action did, or why it could not. */
  notice: string | null;
  body: Html;
}

const NAVIGATION = [
  { path: '/', label: 'Comments' },
  { path: '/requests', label: 'Requests and counts' },
  { path: '/export', label: 'Export the store' },
];

/** A whole desk page. */
export function page({ title, current, notice, body }: PageFrame): string {
  const links = NAVIGATION.map(
    ({ path, label }) => html`<li><a href="${path}" ${new Html(path === current ? ' aria-current="page"' : '')}>${label}</a></li>`,
  );
  return `<!doctype html>\n${
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title} · Owner's desk</title>
        <style>
          ${new Html(STYLE)}
        </style>
      </head>
      <body>
        <header>
          <nav aria-label="Desk">
            <ul>
              ${links}
            </ul>
          </nav>
        </header>
        <main>
          <h1>${title}</h1>
          <p class="notice" role="status">${notice}</p>
          ${body}
        </main>
      </body>
    </html> `.text
  }`;
}

/** A form with one button that posts to `action`, then comes back to `back`. */
export function actionButton(action: string, label: string, back: string, fields: Html | null = null): Html {
  return html`<form method="post" action="${action}">
    <input type="hidden" name="back" value="${back}" />${fields}<button type="submit">${label}</button>
  </form>`;
}
