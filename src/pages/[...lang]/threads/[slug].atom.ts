import type { APIRoute } from 'astro';
import { threadFeed } from '../../../site/comment-feeds.ts';
import { threadNotFound } from '../../../site/thread-request.ts';

export const prerender = false;

/** The Atom feed of an article's newest comments, kept by the front server until the thread changes. */
export const GET: APIRoute = async ({ params }) => (await threadFeed(params)) ?? threadNotFound();
