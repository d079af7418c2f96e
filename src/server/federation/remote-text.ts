import { Parser } from 'htmlparser2';

/** Elements whose end starts a new line of the text. */
const BLOCKS = new Set(['p', 'div', 'li', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol']);
/** Elements whose content is no text a reader wrote. */
const SKIPPED = new Set(['script', 'style', 'template']);

/**
 * A remote post's HTML (a Mastodon `Note`'s `content`) as the plain text of
 * a comment: paragraphs and line breaks as new lines, entities decoded, no
 * markup. A mention or a hashtag keeps its text (`@bob`, `#tag`); any other
 * link becomes its address, whole (Mastodon shortens the text it shows), so
 * that a reader sees where it goes. Parsed with htmlparser2, never matched
 * with patterns: what the HTML holds never reaches the page as markup.
 */
export function remoteText(html: string): string {
  let text = '';
  let skipping = 0;
  const links: { href: string | null; text: string }[] = [];
  const write = (piece: string) => {
    const link = links.at(-1);
    if (link) link.text += piece;
    else text += piece;
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (SKIPPED.has(name)) skipping += 1;
        else if (name === 'br') write('\n');
        else if (name === 'a') {
          const href = attributes['href'] ?? '';
          const tagged = /\b(?:mention|hashtag)\b/.test(attributes['class'] ?? '');
          links.push({ href: !tagged && /^https?:\/\//i.test(href) ? href : null, text: '' });
        }
      },
      ontext(piece) {
        if (skipping === 0) write(piece.replace(/\s+/g, ' '));
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) skipping -= 1;
        else if (name === 'a') {
          const link = links.pop();
          if (link) write(link.href ?? link.text);
        } else if (BLOCKS.has(name)) write('\n\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return text
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
