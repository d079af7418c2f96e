// The adapter's server entrypoint (see astro.config.mjs): the build bundles this
// file as dist/server/entry.mjs, and the front server imports the app from it.
import { createApp } from 'astro/app/entrypoint';
import { setGetEnv } from 'astro/env/setup';
import { bundledCityIndex } from '../cities/city-index.ts';
import { runtime } from '../runtime.ts';

setGetEnv((key) => process.env[key]);

export const app = createApp({ streaming: false });

export { closeRuntime } from '../runtime.ts';
export { endpoints } from '../../site/endpoints.ts';

/**
 * Run before the server listens: a corrupt store, a bad setting or a missing
 * city index stops start-up with its message instead of failing a request.
 */
export async function startUp(): Promise<void> {
  await runtime();
  bundledCityIndex();
}
