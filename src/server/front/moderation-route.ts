import { webRequest } from '../http/node-web.ts';
import { MODERATION_PATH_PREFIX } from '../http/site-paths.ts';
import type { Route } from './route.ts';
import { sendResponse, type BaseHeaders } from './send.ts';

/** The pages of the owner's signed links (src/server/owner/moderation-pages.ts), GET and POST. */
export type ModerationPages = (request: Request) => Promise<Response>;

/**
 * Every request under `/moderation/`: handed over with the headers it came
 * with (the POST's Origin is checked there) and without its body, which the
 * page's form leaves empty; Node drops what a client sends there.
 */
export function moderationRoute(moderation: ModerationPages, base: BaseHeaders): Route {
  const serve: Route = async (req, res, url, served) => {
    served.kind = 'moderation';
    return sendResponse(req, res, await moderation(webRequest(req, url)), base);
  };
  return (req, res, url, served) => (url.pathname.startsWith(MODERATION_PATH_PREFIX) ? serve(req, res, url, served) : null);
}
