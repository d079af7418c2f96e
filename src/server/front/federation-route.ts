import { readCapped, webRequest } from '../http/node-web.ts';
import type { Route } from './route.ts';
import { sendResponse, sendTooLarge, type BaseHeaders } from './send.ts';

/**
 * The federation (src/server/federation/): which requests are its own (by
 * method, path and Accept), and the answer to one, as a web request.
 */
export interface FederationServer {
  owns(method: string, pathname: string, accept: string | undefined): boolean;
  /** `caller` is where the request came from, as the server saw it (a Webmention's quota is per reader). */
  answer(request: Request, caller: { socketAddress: string; connection: object }): Promise<Response>;
  /** The Webmention endpoint (SITE_URL's `/webmention`) that pages advertise in a `Link` header. */
  webmentionEndpoint: string;
}

/** The largest activity an inbox reads: a long article's reply with its context fits many times over. */
const ACTIVITY_BODY_BYTES = 256 * 1024;

/**
 * The federation's requests: WebFinger, NodeInfo, the actors and their
 * inboxes and collections, and an article page asked for as ActivityPub,
 * handed to Fedify with their body; a body past the cap is refused unread.
 * Every other request passes on at once, to be answered as it was.
 */
export function federationRoute(federation: FederationServer, base: BaseHeaders): Route {
  const serve: Route = async (req, res, url, served) => {
    served.kind = 'federation';
    const body = await readCapped(req, req.headers['content-length'], ACTIVITY_BODY_BYTES);
    if (body.tooLarge) return sendTooLarge(req, res, base);
    return sendResponse(
      req,
      res,
      await federation.answer(webRequest(req, url, body.bytes), { socketAddress: req.socket.remoteAddress ?? '', connection: req.socket }),
      base,
    );
  };
  return (req, res, url, served) =>
    federation.owns(req.method ?? 'GET', url.pathname, req.headers.accept) ? serve(req, res, url, served) : null;
}
