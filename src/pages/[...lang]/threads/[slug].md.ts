import type { APIRoute } from 'astro';
import { markdown } from '../../../site/markdown-response.ts';
import { threadTopic } from '../../../server/store/types.ts';
import { keptByRevision } from '../../../server/http/cache-rules.ts';
import { askedThread, threadNotFound } from '../../../site/thread-request.ts';
import { threadTwin } from '../../../site/thread-twin.ts';

export const prerender = false;

/** The Markdown twin of a page of an article's thread, kept by the front server as the HTML fragment is. */
export const GET: APIRoute = async ({ params, url }) => {
  const asked = await askedThread(params, url);
  if (asked === null) return threadNotFound();
  const response = markdown(threadTwin(asked));
  keptByRevision(response.headers, threadTopic(asked.slug), asked.view.revision);
  return response;
};
