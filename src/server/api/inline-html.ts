import { escapeXml as escapeHtml } from '../http/xml.ts';

/**
 * The inline Markdown of the documentation (code spans and links) as HTML,
 * everything else escaped: the page and its Markdown twin say the same thing
 * from the same text.
 */
export function inlineHtml(markdown: string): string {
  return escapeHtml(markdown)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}

/** A code block's content as HTML; set on its `<pre>` so that no formatter can add whitespace inside it. */
export function codeHtml(text: string): string {
  return `<code>${escapeHtml(text)}</code>`;
}
