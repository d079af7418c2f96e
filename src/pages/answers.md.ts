import type { APIRoute } from 'astro';
import { runtime } from '../server/runtime/runtime.ts';
import { markdown } from '../site/markdown-response.ts';

export const prerender = false;

export const GET: APIRoute = async () => {
  const requests = await (await runtime()).store.listTopicRequests();
  const list = requests.map(
    (request) =>
      `- ${request.requestTitle.replace(/\s+/g, ' ').replace(/[\\`*_[\]<>#]/g, '\\$&')} (${request.createdAt.slice(0, 10)}, ${request.status})`,
  );
  const response = markdown(`# Topic requests\n\n${list.length > 0 ? list.join('\n') : 'No requests yet.'}\n`);
  response.headers.set('Cache-Control', 'no-cache');
  return response;
};
