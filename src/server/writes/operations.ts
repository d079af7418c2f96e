import type { z } from 'zod';
import { jsonError } from '../http/json.ts';
import { addComment, nextVote, placeInThread } from '../store/service.ts';
import type { WriteOperation } from './pipeline.ts';
import { bugReportInput, commentInput, ok, topicRequestInput, voteInput } from './schemas.ts';

/** Whether an article is published today: the writes that target one check it first. */
export type IsPublished = (slug: string) => boolean;

const notPublished = (slug: string) => jsonError(404, `No published article has the slug "${slug}"`);

/** POST /api/comments: a comment or a reply, threaded under a parent on the same article. */
export function createComment(isPublished: IsPublished): WriteOperation<z.output<typeof commentInput>> {
  return {
    quota: 'comments',
    schema: commentInput,
    captcha: true,
    async prepare({ articleSlug, parentId, body }, reader, { store }) {
      if (!isPublished(articleSlug)) return notPublished(articleSlug);
      const place = await placeInThread(store, articleSlug, parentId);
      if (!place.ok) return jsonError(400, place.message);
      return () =>
        addComment(store, {
          articleSlug,
          parentId: parentId ?? null,
          depth: place.depth,
          author: reader.name,
          authorHash: reader.hash,
          body,
        });
    },
  };
}

/** POST /api/votes: the toggle on an article or one of its comments. */
export function castVote(isPublished: IsPublished): WriteOperation<z.output<typeof voteInput>> {
  return {
    quota: 'votes',
    schema: voteInput,
    captcha: false,
    async prepare({ articleSlug, commentId, value }, reader, { store }) {
      if (!isPublished(articleSlug)) return notPublished(articleSlug);
      if (commentId && !(await store.getComment(articleSlug, commentId)))
        return jsonError(404, 'commentId: no such comment on this article');
      return async () => {
        const result = await store.applyVote({ articleSlug, commentId: commentId ?? null }, reader.hash, (current) =>
          nextVote(current, value),
        );
        if (!result) throw new Error(`comment ${commentId ?? ''} vanished while voting`);
        return result;
      };
    },
  };
}

/** POST /api/topic-requests: stored as pending and listed on /answers. */
export const createTopicRequest: WriteOperation<z.output<typeof topicRequestInput>> = {
  quota: 'topic-requests',
  schema: topicRequestInput,
  captcha: true,
  prepare: ({ requestTitle, details }, reader, { store }) =>
    Promise.resolve(async () =>
      ok((await store.insertTopicRequest({ requestTitle, details: details ?? null, authorHash: reader.hash })).id),
    ),
};

/** POST /api/bug-reports: stored for review, never shown publicly. */
export const createBugReport: WriteOperation<z.output<typeof bugReportInput>> = {
  quota: 'bug-reports',
  schema: bugReportInput,
  captcha: true,
  prepare: ({ description, pagePath }, reader, { store }) =>
    Promise.resolve(async () => ok((await store.insertBugReport({ description, pagePath, authorHash: reader.hash })).id)),
};
