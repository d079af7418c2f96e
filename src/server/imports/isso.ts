/**
 * isso's SQLite database (its `comments.db`, the file its `[general] dbpath`
 * names), read as isso's schema has it since version 5: `threads` (id, uri
 * the page's path, title) and `comments` (tid, id, parent, created in unix
 * seconds, mode 1 accepted, 2 in moderation, 4 deleted, text, author,
 * website, …). isso itself keeps replies one level deep (a reply to a reply
 * names the top-level comment, and opening an older database flattens it),
 * but one last written by isso before 0.9 (schema version 1 or 2) nests as
 * readers replied: parents are followed as they are.
 *
 * The file is opened read-only with Node's own SQLite; only the columns
 * below are selected, so the author's email and remote_addr are never read.
 */
import { DatabaseSync } from 'node:sqlite';
import MarkdownIt from 'markdown-it';
import { z } from 'zod';
import type { ForeignComment, ForeignStatus } from './foreign.ts';

const row = z.object({
  id: z.number(),
  parent: z.number().nullable(),
  created: z.number(),
  mode: z.number().nullable(),
  text: z.string().nullable(),
  author: z.string().nullable(),
  website: z.string().nullable(),
  uri: z.string(),
});

const STATUSES: Record<number, ForeignStatus> = { 1: 'approved', 2: 'pending', 4: 'deleted' };

/**
 * What the reader typed is Markdown, which isso renders with misaka letting
 * its allowed elements through; its own migrations from Disqus and WordPress
 * store those systems' HTML as the text. A text with an HTML tag in it is
 * therefore rendered the way isso showed it (Markdown with inline HTML) and
 * handed over as HTML, to be made the safe subset; any other stays as typed.
 */
const TAG = /<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?\/?>/i;
const renderer = new MarkdownIt('default', { html: true, linkify: false, breaks: false });

function bodyOf(text: string): ForeignComment['body'] {
  return TAG.test(text) ? { html: renderer.render(text) } : { text };
}

const SELECT = `
  SELECT comments.id, comments.parent, comments.created, comments.mode,
         comments.text, comments.author, comments.website, threads.uri
  FROM comments JOIN threads ON threads.id = comments.tid
  ORDER BY comments.id`;

/** The comments of the isso database at `file`, on the page their thread's uri names. */
export function readIsso(file: string): ForeignComment[] {
  const database = new DatabaseSync(file, { readOnly: true });
  try {
    return database
      .prepare(SELECT)
      .all()
      .map((found) => {
        const item = row.parse(found);
        const author = item.author?.trim() ?? '';
        const website = item.website ?? '';
        return {
          sourceId: String(item.id),
          parentSourceId: item.parent === null ? null : String(item.parent),
          pageUrl: item.uri,
          authorName: author === '' ? 'Anonymous' : author,
          authorUrl: /^https?:\/\//.test(website) ? website : null,
          createdAt: new Date(item.created * 1000).toISOString(),
          body: bodyOf(item.text ?? ''),
          status: STATUSES[item.mode ?? 0] ?? 'pending',
        } satisfies ForeignComment;
      });
  } finally {
    database.close();
  }
}
