/**
 * remark42's backup (its `backup` command, or the admin's export): JSON Lines
 * whose first line describes the site and whose other lines are comments,
 * with `text` as HTML, `pid` empty for a top-level comment and `delete` set
 * for a deleted one. The user's ip (hashed by remark42) and email are not read.
 */
import { z } from 'zod';
import type { ForeignComment } from './foreign.ts';

const remarkComment = z.object({
  id: z.string(),
  pid: z.string().default(''),
  text: z.string(),
  user: z.object({ name: z.string().default('') }),
  locator: z.object({ url: z.string() }),
  time: z.string(),
  delete: z.boolean().default(false),
});

/** The comments of a backup file's text; lines that are not comments (the first) are passed over. */
export function readRemark42(text: string): ForeignComment[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      const parsed = remarkComment.safeParse(JSON.parse(line));
      if (!parsed.success) return [];
      const item = parsed.data;
      return [
        {
          sourceId: item.id,
          parentSourceId: item.pid === '' ? null : item.pid,
          pageUrl: item.locator.url,
          authorName: item.user.name.trim() === '' ? 'Anonymous' : item.user.name.trim(),
          authorUrl: null,
          createdAt: new Date(item.time).toISOString(),
          body: { html: item.text },
          status: item.delete ? 'deleted' : 'approved',
        } satisfies ForeignComment,
      ];
    });
}
