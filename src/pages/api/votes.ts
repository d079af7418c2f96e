import type { APIRoute } from 'astro';
import { publishedToday } from '../../server/articles/collection.ts';
import { methodNotAllowed } from '../../server/http/api-frame.ts';
import { castVote } from '../../server/writes/operations.ts';
import { identify, runWrite } from '../../server/writes/pipeline.ts';
import { writeRuntime } from '../../server/writes/runtime.ts';
import { answerViewerVotes } from '../../server/writes/viewer-votes.ts';

export const prerender = false;

export const GET: APIRoute = async ({ request, url, clientAddress }) => {
  const runtime = await writeRuntime();
  const { reader } = identify({ request, socketAddress: clientAddress }, runtime);
  return answerViewerVotes(url.searchParams.get('slug'), await publishedToday(), reader, runtime.store);
};

export const POST: APIRoute = async ({ request, clientAddress }) =>
  runWrite({ request, socketAddress: clientAddress }, await writeRuntime(), castVote(await publishedToday()));

export const ALL = methodNotAllowed(['GET', 'HEAD', 'POST']);
