import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readCapped } from '../http/node-web.ts';
import { refusal, type Refusal } from '../api-frame/refusals.ts';
import { log } from '../observability/log.ts';
import {
  answerTopicRequest,
  answerUrl,
  approveMention,
  blockInstance,
  deleteMention,
  declineTopicRequest,
  exportLines,
  markReviewed,
  moderateComment,
  moderateTopicRequest,
  OwnerActionFailed,
  removeSubscriber,
  setReaderBan,
  unblockInstance,
} from './actions.ts';
import type { FollowerStore, MentionStore, ModerationStore, NewsletterStore, TransferStore } from '../store/roles.ts';
import type { CommentFilter } from '../store/types.ts';
import { DESK_CSP, html, page, type Html } from './desk-html.ts';
import { commentsBody, DESK_PAGE_SIZE, requestsBody } from './desk-pages.ts';

/** The roles the desk's pages and actions use. */
type DeskStore = ModerationStore & NewsletterStore & TransferStore & FollowerStore & MentionStore;

/** The owner's desk: pages on a listener of its own (docs/architecture.md, "Notifications, moderation and the desk"). */
export interface DeskOptions {
  store: DeskStore;
  /** The public site's origin, for links to articles. */
  site: string;
  host: string;
  port: number;
  /** The origin of a proxy the owner reaches the desk through (OWNER_ORIGIN). */
  origin?: string | undefined;
}

/** A form's fields at most: an answer's address and where to come back to. */
const LARGEST_FORM_BYTES = 8 * 1024;

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

function sendPage(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': DESK_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  });
  res.end(body);
}

function refuse(res: ServerResponse, { status, message }: Refusal): void {
  pageSaying(res, status, message);
}

/** A page that says `title` and links back to the comments. */
function pageSaying(res: ServerResponse, status: number, title: string): void {
  sendPage(res, status, page({ title, current: '', notice: null, body: html`<p><a href="/">The comments</a></p>` }));
}

/** A POST's form; null for another body, or one past LARGEST_FORM_BYTES, whose answer then closes the connection. */
async function formOf(req: IncomingMessage, res: ServerResponse): Promise<URLSearchParams | null> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return null;
  const { bytes, tooLarge } = await readCapped(req, req.headers['content-length'], LARGEST_FORM_BYTES);
  if (tooLarge) {
    // The rest of the body is left unread: this connection cannot carry another request.
    res.shouldKeepAlive = false;
    return null;
  }
  return new URLSearchParams(Buffer.from(bytes).toString('utf8'));
}

/** The base a form's `back` is read against: only what stays on it is the desk's. */
const DESK_BASE = 'http://desk';

/**
 * Where a form asks to come back to, as the browser will read it: a path on
 * the desk, else the desk's home. It is checked once normalised (dot
 * segments, percent-encoded dots and backslashes resolved), since `/.//host`
 * and `/%2e//host` become `//host`, which a browser reads as another site.
 */
function backOf(form: URLSearchParams): URL {
  const back = form.get('back') ?? '/';
  const url = back.startsWith('/') ? new URL(back, DESK_BASE) : null;
  return url?.origin === DESK_BASE && !url.pathname.startsWith('//') ? url : new URL('/', DESK_BASE);
}

/** `back` with the notice of what was done, which the page shows. */
function withNotice(back: URL, notice: string, failed: boolean): string {
  back.searchParams.set(failed ? 'failed' : 'done', notice);
  return `${back.pathname}${back.search}`;
}

/** The action a POST names, on the store: each one of the owner's actions. */
function actionOf(path: string, form: URLSearchParams, store: DeskStore): (() => Promise<string>) | null {
  // The address is a field of the form, never a part of the path: a path may be logged by a proxy in front.
  if (path === '/subscribers/remove') return () => removeSubscriber(store, form.get('email') ?? '');
  if (path === '/instances/block') return () => blockInstance(store, form.get('host') ?? '');
  if (path === '/instances/unblock') return () => unblockInstance(store, form.get('host') ?? '');
  if (path === '/mentions/approve') return () => approveMention(store, form.get('source') ?? '', form.get('target') ?? '');
  if (path === '/mentions/delete') return () => deleteMention(store, form.get('source') ?? '', form.get('target') ?? '');
  const [, kind, rawId, verb, ...rest] = path.split('/');
  if (kind === undefined || rawId === undefined || verb === undefined || rest.length > 0) return null;
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    return null;
  }
  const action = `${kind}/${verb}`;
  if (action === 'comments/delete') return () => moderateComment(store, 'delete', id);
  if (action === 'comments/approve') return () => moderateComment(store, 'approve', id);
  if (action === 'readers/ban') return () => setReaderBan(store, id, true);
  if (action === 'readers/unban') return () => setReaderBan(store, id, false);
  if (action === 'topic-requests/decline') return () => declineTopicRequest(store, id);
  if (action === 'topic-requests/approve') return () => moderateTopicRequest(store, 'approve', id);
  if (action === 'topic-requests/remove') return () => moderateTopicRequest(store, 'remove', id);
  if (action === 'reviews/done') return () => markReviewed(store, id);
  if (action === 'topic-requests/answer') {
    return () => {
      const link = answerUrl((form.get('url') ?? '').trim());
      if (link === null) throw new OwnerActionFailed('The answer must be an http(s) address or a path on the site starting with /');
      return answerTopicRequest(store, id, link);
    };
  }
  return null;
}

function filterOf(query: URLSearchParams): CommentFilter {
  const filter: CommentFilter = {};
  if (query.get('show') === 'waiting') filter.waiting = true;
  const article = query.get('article')?.trim();
  const reader = query.get('reader')?.trim();
  const before = query.get('before');
  if (article) filter.articleSlug = article;
  if (reader) filter.authorHash = reader;
  if (before && !Number.isNaN(Date.parse(before))) filter.before = before;
  return filter;
}

async function sendExport(res: ServerResponse, store: TransferStore): Promise<void> {
  const date = new Date().toISOString().slice(0, 10);
  res.writeHead(200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'content-disposition': `attachment; filename="longhand-export-${date}.ndjson"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  for await (const line of exportLines(store)) {
    if (!res.write(line)) await once(res, 'drain');
  }
  res.end();
}

/** The requests page's body: what waits, the blocked instances, the Webmentions received, the counts. */
async function requestsOf(store: DeskStore): Promise<Html> {
  const [queue, stats, blocks, mentions] = await Promise.all([
    store.reviewQueue(),
    store.stats(),
    store.blockedInstances(),
    store.listMentions().then((all) => all.filter((mention) => mention.direction === 'received')),
  ]);
  return requestsBody(queue, stats, blocks, mentions);
}

/** Starts the desk's listener; resolves once it listens. */
export async function serveDesk({ store, site, host, port, origin }: DeskOptions): Promise<Server> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log().error('[desk] a request failed', {}, error);
      if (!res.headersSent) pageSaying(res, 500, 'Something went wrong');
      else res.destroy();
    });
  });

  function ownNames(): Set<string> {
    const address = server.address();
    const listening = typeof address === 'object' && address ? address.port : port;
    const names = new Set(
      [...LOOPBACK_NAMES, host].map((name) => `${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${listening}`),
    );
    if (origin) names.add(new URL(origin).host);
    return names;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const names = ownNames();
    if (!names.has(req.headers.host ?? '')) {
      refuse(res, refusal('wrong_host', 'This is not the address of the desk'));
      return;
    }
    const url = new URL(req.url ?? '/', DESK_BASE);
    if (req.method === 'POST') {
      const from = req.headers.origin;
      if (from === undefined || !names.has(URL.canParse(from) ? new URL(from).host : '')) {
        refuse(res, refusal('cross_origin', 'Only the desk’s own pages can do this'));
        return;
      }
      const form = await formOf(req, res);
      const action = form && actionOf(url.pathname, form, store);
      if (!form || !action) {
        refuse(res, refusal('invalid_input', 'No such action'));
        return;
      }
      const back = backOf(form);
      let location: string;
      try {
        location = withNotice(back, await action(), false);
      } catch (error) {
        if (!(error instanceof OwnerActionFailed)) throw error;
        location = withNotice(back, error.message, true);
      }
      res.writeHead(303, { location, 'cache-control': 'no-store' });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refuse(res, refusal('method_not_allowed', 'Not a method the desk answers'));
      return;
    }
    const notice = url.searchParams.get('done') ?? url.searchParams.get('failed');
    if (url.pathname === '/') {
      const filter = filterOf(url.searchParams);
      const comments = await store.recentComments(filter, DESK_PAGE_SIZE);
      const readers = [...new Set(comments.map((comment) => comment.authorHash))];
      const banned = new Set(
        (await Promise.all(readers.map(async (hash) => ((await store.isBanned(hash)) ? hash : null)))).filter((hash) => hash !== null),
      );
      sendPage(res, 200, page({ title: 'Comments', current: '/', notice, body: commentsBody(filter, comments, banned, site) }));
      return;
    }
    if (url.pathname === '/requests') {
      sendPage(res, 200, page({ title: 'Requests and counts', current: '/requests', notice, body: await requestsOf(store) }));
      return;
    }
    if (url.pathname === '/export') return sendExport(res, store);
    refuse(res, refusal('not_found'));
  }

  server.listen(port, host);
  await once(server, 'listening');
  return server;
}
