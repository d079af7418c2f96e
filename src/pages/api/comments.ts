import type { APIRoute } from 'astro';
import { publishedToday } from '../../server/articles/collection.ts';
import { methodNotAllowed } from '../../server/http/api-frame.ts';
import { createComment } from '../../server/writes/operations.ts';
import { runWrite } from '../../server/writes/pipeline.ts';
import { writeRuntime } from '../../server/writes/runtime.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, clientAddress }) =>
  runWrite({ request, socketAddress: clientAddress }, await writeRuntime(), createComment(await publishedToday()));

export const ALL = methodNotAllowed(['POST']);
