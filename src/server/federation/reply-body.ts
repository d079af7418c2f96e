import type { Note } from '@fedify/vocab';
import { markdownFromHtml } from '../comment-markdown/markdown-from-html.ts';
import { commentInput } from '../writes/schemas.ts';

/** A comment's longest text, as the site's own form allows (src/server/writes/schemas.ts). */
const BODY_CHARS = 4000;
/**
 * The most of a remote post's HTML read: its text, up to BODY_CHARS, with
 * the markup of many links and mentions fits many times over. Past it, HTML
 * nested without end costs the parser (htmlparser2) time that grows with the
 * square of the nesting, on the server's one thread.
 */
const HTML_CHARS = 8 * BODY_CHARS;

/** The text of a remote post as a comment holds it, or null when nothing of it is a comment's text. */
export function replyBody(note: Note): string | null {
  const html = (note.content?.toString() ?? '').slice(0, HTML_CHARS);
  const body = commentInput.shape.body.safeParse(markdownFromHtml(html).slice(0, BODY_CHARS));
  return body.success ? body.data : null;
}
