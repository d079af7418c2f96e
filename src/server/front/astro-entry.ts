// The adapter's server entrypoint (see astro.config.mjs): the build bundles this
// file as dist/server/entry.mjs, and the front server imports the app from it.
import { createApp } from 'astro/app/entrypoint';
import { setGetEnv } from 'astro/env/setup';

setGetEnv((key) => process.env[key]);

export const app = createApp({ streaming: false });

// Opened before the server listens: a corrupt store or a bad setting stops start-up.
export { closeWriteRuntime, writeRuntime } from '../writes/runtime.ts';
