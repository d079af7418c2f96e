// The adapter's server entrypoint (see astro.config.mjs): the build bundles this
// file as dist/server/entry.mjs, and the front server (scripts/start.ts) imports
// from it the app, the API dispatcher and the runtime's start and stop.
import { createApp } from 'astro/app/entrypoint';
import { setGetEnv } from 'astro/env/setup';
import { apiServices } from '../../site/api-services.ts';
import { dispatchApi } from '../api/dispatch.ts';
import type { ApiAnswer } from '../http/api-answer.ts';
import { bundledCityIndex } from '../cities/city-index.ts';
import { runtime } from '../runtime/runtime.ts';
import type { RevisionTopic } from '../store/types.ts';

setGetEnv((key) => process.env[key]);

export const app = createApp({ streaming: false });

export { closeRuntime } from '../runtime/runtime.ts';

/** Answers an `/api` request from the registry, with this build's services. */
export function api(request: Request, socketAddress: string): Promise<ApiAnswer> {
  return dispatchApi({ request, socketAddress, services: apiServices });
}

/** The store's current revision of a topic a render named, for the front server's kept renders; '' for no such topic. */
export async function revisionOf(topic: string): Promise<string> {
  const known = topic === 'topic-requests' || topic.startsWith('thread:');
  return known ? (await runtime()).store.revision(topic as RevisionTopic) : '';
}

/**
 * Run before the server listens: a corrupt store, a bad setting or a missing
 * city index stops start-up with its message instead of failing a request.
 */
export async function startUp(): Promise<void> {
  await runtime();
  bundledCityIndex();
}
