import type { APIRoute } from 'astro';
import { markdown } from '../../../site/markdown-response.ts';
import { askedThread, showsThreads, threadNotFound } from '../../../site/thread-request.ts';
import { threadTwin } from '../../../site/thread-twin.ts';

export const prerender = false;

/** The Markdown twin of a page of an article's thread, kept by the front server as the HTML fragment is. */
export const GET: APIRoute = async ({ params, url }) => {
  const asked = await askedThread(params, url);
  if (asked === null) return threadNotFound();
  const response = markdown(threadTwin(asked));
  showsThreads(response.headers, `thread:${asked.slug}`, asked.view.revision);
  return response;
};
