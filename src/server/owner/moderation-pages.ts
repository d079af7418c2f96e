/**
 * The pages a moderation link opens (`/moderation/<token>`). GET shows what
 * the link would do and a button, and changes nothing, so that a mail
 * scanner or a link preview that fetches it is harmless; the button POSTs
 * the page's own form to the same address, which does it. A link is spent
 * by its first POST, whatever it then finds, and in the store, so that it
 * acts once across restarts and instances: used again, it answers 409 even
 * after its action was undone (a ban lifted). A link altered (400), expired
 * (410), used (409), about a comment that is gone (410) or whose action was
 * done already (409) says so, on GET and POST alike. The pages are the
 * owner's, in English; nobody else has a use for them.
 */
import type { KeyObject } from 'node:crypto';
import { DEFAULT_LANGUAGE } from '../../i18n/languages.ts';
import { articlePath } from '../articles/catalog.ts';
import { commentHtml } from '../comment-markdown/comment-html.ts';
import { MODERATION_PATH_PREFIX } from '../http/site-paths.ts';
import { LINK_PAGE_HEADERS, linkPage, paragraph } from '../http/link-page.ts';
import { escapeXml as escapeHtml } from '../http/xml.ts';
import { moderate, moderationState, type ModerationAction, type ModerationState } from './moderation.ts';
import type { ModerationStore } from '../store/roles.ts';
import type { StoredComment } from '../store/types.ts';
import { readModerationToken } from './moderation-links.ts';

export interface ModerationPagesOptions {
  store: ModerationStore;
  /** The `moderation-link` signing key. */
  key: KeyObject;
  /** The site's origin: a POST must come from it, as the page's own form does. */
  site: string;
  /** The clock links expire by (epoch milliseconds). */
  now?: () => number;
}

const WORDS: Record<ModerationAction, { ask: string; button: string; done: string; already: string }> = {
  approve: {
    ask: 'Approve this comment? It is then shown on its article as posted.',
    button: 'Approve',
    done: 'Approved: the comment is shown on its article.',
    already: 'This comment was approved already.',
  },
  delete: {
    ask: 'Delete this comment? A comment waiting for approval is removed; a published one leaves a placeholder for its replies.',
    button: 'Delete',
    done: 'Deleted.',
    already: 'This comment was deleted already.',
  },
  ban: {
    ask: 'Ban the writer of this comment? Every write of theirs is then refused until you lift the ban (npm run data -- unban).',
    button: 'Ban the writer',
    done: 'Banned: the writer of this comment can no longer write.',
    already: 'The writer of this comment is banned already.',
  },
};

/** The owner's pages are in English: nobody else has a use for them. */
function page(status: number, title: string, content: string): Response {
  return linkPage(status, { lang: 'en', dir: 'ltr' }, title, content);
}

/** The comment a link is about, as the owner reads it: article, writer, state and text (rendered as the page shows it). */
function commentShown(comment: StoredComment): string {
  const state = comment.deletedAt !== null ? 'deleted' : comment.status === 'pending' ? 'waiting for approval' : 'published';
  return `<p>On <a href="${escapeHtml(articlePath(comment.articleSlug, DEFAULT_LANGUAGE))}">${escapeHtml(comment.articleSlug)}</a>, by ${escapeHtml(comment.author)}, ${escapeHtml(comment.createdAt.slice(0, 16).replace('T', ' '))} UTC (${state}):</p>
<blockquote dir="auto">${commentHtml(comment.body)}</blockquote>`;
}

/** The page of a link whose action cannot be done (any more). */
function unavailable(action: ModerationAction, state: Exclude<ModerationState['state'], 'ready'>, comment?: StoredComment): Response {
  if (state === 'missing') return page(410, 'Comment gone', paragraph('This comment is no longer there: it was deleted.'));
  return page(409, 'Already done', paragraph(WORDS[action].already) + (comment ? commentShown(comment) : ''));
}

/** The page of a link that was used: each link acts once. */
function used(): Response {
  return page(
    409,
    'Link used',
    paragraph('This link was used already: each link acts once. The desk or npm run data -- review does the rest.'),
  );
}

const EXPIRED = 'This link has expired: moderation links work for 7 days. npm run data -- review lists what waits.';
const NOT_OURS = 'This link is not one this site made, or it was altered on its way.';

/** Answers a request to `/moderation/<token>`. */
export async function serveModeration(request: Request, options: ModerationPagesOptions): Promise<Response> {
  const { store, key, site } = options;
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'POST')
    return new Response('Method not allowed\n', {
      status: 405,
      headers: { ...LINK_PAGE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', Allow: 'GET, HEAD, POST' },
    });
  const token = new URL(request.url).pathname.slice(MODERATION_PATH_PREFIX.length);
  const reading = readModerationToken(key, token, (options.now ?? Date.now)());
  if (!reading.ok) {
    const { status, code, message } = reading.refusal;
    return page(status, message, paragraph(code === 'link_expired' ? EXPIRED : NOT_OURS));
  }
  const { action, commentId, link } = reading;
  if (request.method !== 'POST') {
    if (await store.linkSpent(link.link)) return used();
    const current = await moderationState(store, action, commentId);
    if (current.state !== 'ready') return unavailable(action, current.state, current.state === 'done' ? current.comment : undefined);
    const form = `<form method="post"><button type="submit">${escapeHtml(WORDS[action].button)}</button></form>`;
    return page(200, `${WORDS[action].button}?`, paragraph(WORDS[action].ask) + commentShown(current.comment) + form);
  }
  // The page's own form sends its origin; a POST from anywhere else acts on nothing.
  if (request.headers.get('Origin') !== site)
    return page(403, 'Not sent from this site', paragraph('Open the link and press its button: the action is taken from that page only.'));
  if (!(await store.spendLink(link))) return used();
  const outcome = await moderate(store, action, commentId);
  if (outcome.state !== 'ready') return unavailable(action, outcome.state, outcome.state === 'done' ? outcome.comment : undefined);
  return page(200, 'Done', paragraph(WORDS[action].done));
}
