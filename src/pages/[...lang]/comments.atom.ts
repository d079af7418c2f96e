import type { APIRoute } from 'astro';
import { siteCommentFeed } from '../../site/comment-feeds.ts';
import { threadNotFound } from '../../site/thread-request.ts';

export const prerender = false;

/** The Atom feed of the whole site's newest comments, kept by the front server until any thread changes. */
export const GET: APIRoute = async ({ params }) => (await siteCommentFeed(params)) ?? threadNotFound();
