import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '../api-frame/write-guards.ts';
import { readCapped, webRequest } from '../http/node-web.ts';
import { NEWSLETTER_PATHS } from '../http/site-paths.ts';
import type { Route } from './route.ts';
import { sendResponse, sendTooLarge, type BaseHeaders } from './send.ts';

/** The newsletter's answers (src/server/newsletter/newsletter.ts): a web request, and who sent it, for the reader's quota. */
export type NewsletterServer = (request: Request, caller: { socketAddress: string; connection: object }) => Promise<Response>;

const NEWSLETTER_PREFIX = '/newsletter/';

/**
 * `POST /subscribe` and the pages under `/newsletter/`, handed over as web
 * requests with their body, read up to one byte past the writes' cap: a body
 * past it is answered 413 here, and the connection closed, since the rest
 * was never read. Without a newsletter (NEWSLETTER off), they answer 404,
 * unread: there is nothing to subscribe to.
 */
export function subscribeRoute(newsletter: NewsletterServer | undefined, base: BaseHeaders): Route {
  const serve = async (answer: NewsletterServer, req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> => {
    const body = await readCapped(req, req.headers['content-length'], MAX_BODY_BYTES);
    if (body.tooLarge) return sendTooLarge(req, res, base);
    const caller = { socketAddress: req.socket.remoteAddress ?? '', connection: req.socket };
    return sendResponse(req, res, await answer(webRequest(req, url, body.bytes), caller), base);
  };
  return (req, res, url, served) => {
    if (url.pathname !== NEWSLETTER_PATHS.subscribe && !url.pathname.startsWith(NEWSLETTER_PREFIX)) return null;
    served.kind = 'newsletter';
    if (!newsletter)
      return sendResponse(
        req,
        res,
        new Response('Not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
        base,
      );
    return serve(newsletter, req, res, url);
  };
}
