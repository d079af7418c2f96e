// The adapter's server entrypoint (see astro.config.mjs): the build bundles this
// file as dist/server/entry.mjs, and npm start's server process
// (scripts/serve.mjs) runs `serveSite` from it, so that it runs the build's
// JavaScript only.
import { createApp } from 'astro/app/entrypoint';
import { setGetEnv } from 'astro/env/setup';
import { serve } from './serve.ts';

setGetEnv((key) => process.env[key]);

const app = createApp({ streaming: false });

/** Serves the site built in `root` (the checkout): the front server in front of this build's app. */
export function serveSite(root: string): Promise<void> {
  return serve(app, root);
}
