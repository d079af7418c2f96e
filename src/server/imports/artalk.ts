/**
 * Artalk's Artrans export (https://artalk.js.org/guide/transfer.html): a JSON
 * array of comments whose values are strings; `rid` "0" is a top-level
 * comment, `content` is Markdown. Its `email` and `ip` are not read.
 */
import { z } from 'zod';
import type { ForeignComment } from './foreign.ts';

const artrans = z.array(
  z.object({
    id: z.coerce.string(),
    rid: z.coerce.string().default('0'),
    content: z.string(),
    nick: z.string().default(''),
    link: z.string().default(''),
    page_key: z.string(),
    created_at: z.string(),
    is_pending: z.coerce.string().default('false'),
  }),
);

/** `2021-10-28 20:50:15 +0800 +0800`, as Artalk writes a date, or ISO 8601. */
function isoFrom(date: string): string {
  const match = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) ([+-]\d\d)(\d\d)/.exec(date);
  const parsed = new Date(match ? `${match[1]}T${match[2]}${match[3]}:${match[4]}` : date);
  if (Number.isNaN(parsed.getTime())) throw new Error(`"${date}" is not a date`);
  return parsed.toISOString();
}

/** The comments of an Artrans file's text. */
export function readArtalk(text: string): ForeignComment[] {
  return artrans.parse(JSON.parse(text)).map((item) => ({
    sourceId: item.id,
    parentSourceId: item.rid === '0' || item.rid === '' ? null : item.rid,
    pageUrl: item.page_key,
    authorName: item.nick.trim() === '' ? 'Anonymous' : item.nick.trim(),
    authorUrl: /^https?:\/\//.test(item.link) ? item.link : null,
    createdAt: isoFrom(item.created_at),
    body: { text: item.content },
    status: item.is_pending === 'true' ? 'pending' : 'approved',
  }));
}
