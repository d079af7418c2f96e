import type { Note } from '@fedify/vocab';
import { markdownFromHtml } from '../comment-markdown/markdown-from-html.ts';
import { COMMENT_CHARS, commentInput } from '../writes/schemas.ts';

/**
 * The most of a remote post's HTML read: its text, up to COMMENT_CHARS, with
 * the markup of many links and mentions fits many times over. Past it, HTML
 * nested without end costs the parser (htmlparser2) time that grows with the
 * square of the nesting, on the server's one thread.
 */
const HTML_CHARS = 8 * COMMENT_CHARS;

/** The text of a remote post as a comment holds it, or null when nothing of it is a comment's text. */
export function replyBody(note: Note): string | null {
  const html = (note.content?.toString() ?? '').slice(0, HTML_CHARS);
  const body = commentInput.shape.body.safeParse(markdownFromHtml(html).slice(0, COMMENT_CHARS));
  return body.success ? body.data : null;
}
