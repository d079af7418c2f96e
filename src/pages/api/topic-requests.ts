import type { APIRoute } from 'astro';
import { methodNotAllowed } from '../../server/http/api-frame.ts';
import { createTopicRequest } from '../../server/writes/operations.ts';
import { runWrite } from '../../server/writes/pipeline.ts';
import { writeRuntime } from '../../server/writes/runtime.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, clientAddress }) =>
  runWrite({ request, socketAddress: clientAddress }, await writeRuntime(), createTopicRequest);

export const ALL = methodNotAllowed(['POST']);
