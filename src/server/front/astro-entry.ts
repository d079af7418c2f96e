// The adapter's server entrypoint (see astro.config.mjs): the build bundles this
// file as dist/server/entry.mjs, and the front server imports the app from it.
import { createApp } from 'astro/app/entrypoint';
import { setGetEnv } from 'astro/env/setup';

setGetEnv((key) => process.env[key]);

export const app = createApp({ streaming: false });
