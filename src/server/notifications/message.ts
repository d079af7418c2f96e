import { DEFAULT_LANGUAGE } from '../../i18n/languages.ts';
import { articlePath } from '../articles/catalog.ts';
import type { ModerationLink } from '../owner/moderation-links.ts';
import type { ModerationAction } from '../owner/moderation.ts';
import type { Notification } from '../store/types.ts';

/**
 * What the owner reads: a notification as a few lines of plain text, an
 * email holding a batch of them, and a webhook body. Only what the
 * notification holds is written (it never holds an address or a hash),
 * with a comment's moderation links. The site's own lines (what came in, its
 * page, a Webmention's source, its moderation links) come first; what a
 * reader wrote (or another site's page said) comes after them, every line
 * quoted and the whole between two marker lines, so that no text of theirs
 * can pass for a line or link of the site's.
 */

/** The signed moderation links of a notification: a comment's approve (while it waits), delete and ban; none for anything else. */
export type LinksOf = (notification: Notification) => ModerationLink[];

const LINK_LABELS: Record<ModerationAction, string> = { approve: 'Approve', delete: 'Delete', ban: 'Ban the writer' };

/** Where the owner approves or deletes a Webmention that waits. */
const MENTION_DESK = 'the desk’s Requests and counts page, or npm run data -- mentions';

/** The lines around what a reader wrote. */
const READER_TEXT = { start: '——— The reader wrote (their words, not the site’s): ———', end: '——— End of what the reader wrote ———' };

/** Discord refuses a message whose `content` is longer. */
const DISCORD_CONTENT_LIMIT = 2000;

/** The page a notification is about, if any. */
function linkOf(notification: Notification, site: string): string | null {
  switch (notification.kind) {
    case 'comment':
      return `${site}${articlePath(notification.articleSlug, DEFAULT_LANGUAGE)}`;
    case 'mention':
      return `${site}${articlePath(notification.articleSlug, notification.lang)}`;
    case 'bugReport':
      return notification.pagePath === null ? null : `${site}${notification.pagePath}`;
    case 'topicRequest':
    case 'citySubmission':
      return null;
  }
}

/** One line naming what came in. */
function headlineOf(notification: Notification): string {
  switch (notification.kind) {
    case 'comment':
      return `New ${notification.parentId === null ? 'comment' : 'reply'} by ${notification.author} on ${notification.articleSlug}${notification.status === 'pending' ? ', waiting for approval' : ''}`;
    case 'topicRequest':
      return `New topic request: “${notification.requestTitle}”`;
    case 'bugReport':
      return 'New bug report';
    case 'citySubmission':
      return `New city submission: ${notification.city}, ${notification.countryName}`;
    case 'mention': {
      const author = notification.authorName ?? new URL(notification.source).host;
      return `New Webmention (${notification.mentionKind}) by ${author} on ${notification.articleSlug}${notification.status === 'waiting' ? ', waiting for approval' : ''}`;
    }
  }
}

/**
 * The site's lines about a notification besides its page and links: a
 * Webmention's source, and where one that waits is approved (the desk has
 * no address the site knows, and a mention no moderation link).
 */
function detailsOf(notification: Notification): string[] {
  if (notification.kind !== 'mention') return [];
  const waiting = notification.status === 'waiting' ? [`To approve or delete it: ${MENTION_DESK}`] : [];
  return [`Source: ${notification.source}`, ...waiting];
}

/** What a reader wrote, as sent. */
function bodyOf(notification: Notification): string {
  switch (notification.kind) {
    case 'comment':
      return notification.body;
    case 'topicRequest':
      return notification.details ?? '';
    case 'bugReport':
      return notification.description;
    case 'citySubmission':
      return `Net pay ${notification.netPay} ${notification.currency}, rent ${notification.rent}, a beer ${notification.beerPrice}`;
    case 'mention':
      return notification.body ?? '';
  }
}

/** What a reader wrote, each line quoted, between the marker lines; nothing when they wrote nothing. */
function quotedOf(written: string): string {
  if (written === '') return '';
  const quoted = written.split(/\r\n|\r|\n/).map((line) => `> ${line}`);
  return [READER_TEXT.start, ...quoted, READER_TEXT.end].join('\n');
}

/**
 * A notification as plain text: its headline; its page, its details and its
 * moderation links, one a line; then what was written, quoted.
 */
function textOf(notification: Notification, site: string, links: readonly ModerationLink[]): string {
  const link = linkOf(notification, site);
  const siteLines = [
    ...(link === null ? [] : [`Page: ${link}`]),
    ...detailsOf(notification),
    ...links.map(({ action, url }) => `${LINK_LABELS[action]}: ${url}`),
  ];
  return [headlineOf(notification), siteLines.join('\n'), quotedOf(bodyOf(notification))].filter(Boolean).join('\n\n');
}

/**
 * Text for Slack: its control characters escaped (`<!channel>`, `<url|label>`
 * links), and the mentions that reach everyone broken by a zero-width space,
 * for Slack and whatever else reads `text`.
 */
function slackTextOf(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/@(everyone|here|channel)/giu, '@\u200b$1');
}

/**
 * How much of a large batch an email shows whole, with their links: the
 * notifications after these are a line each (headline and page), so that a
 * burst makes one email of a readable size.
 */
export const EMAIL_WHOLE = 100;

/** One line for a notification past the first EMAIL_WHOLE: its headline and its page. */
function lineOf(notification: Notification, site: string): string {
  const link = linkOf(notification, site);
  return `- ${headlineOf(notification)}${link === null ? '' : `: ${link}`}`;
}

/** One email for a batch of notifications, oldest first, however many (see EMAIL_WHOLE). */
export function emailOf(notifications: readonly Notification[], site: string, linksOf: LinksOf): { subject: string; text: string } {
  const [first] = notifications;
  const subject =
    notifications.length === 1 && first ? headlineOf(first) : `${notifications.length} new comments and requests on ${new URL(site).host}`;
  const whole = notifications.slice(0, EMAIL_WHOLE).map((notification) => textOf(notification, site, linksOf(notification)));
  const listed = notifications.slice(EMAIL_WHOLE).map((notification) => lineOf(notification, site));
  const rest = listed.length > 0 ? [`And ${listed.length} more:\n\n${listed.join('\n')}`] : [];
  return { subject, text: [...whole, ...rest].join('\n\n———\n\n') };
}

/**
 * The JSON a webhook receives: `text` (Slack, ntfy; escaped for Slack) and
 * `content` (Discord, which is told to notify no one: `allowed_mentions`)
 * carry the message; the notification's own fields as they are, its link and
 * its moderation links (`moderation`: action → URL) sit beside.
 */
export function webhookBodyOf(notification: Notification, site: string, linksOf: LinksOf): Record<string, unknown> {
  const links = linksOf(notification);
  const text = textOf(notification, site, links);
  return {
    text: slackTextOf(text),
    content: text.slice(0, DISCORD_CONTENT_LIMIT),
    allowed_mentions: { parse: [] },
    ...notification,
    url: linkOf(notification, site),
    ...(links.length > 0 ? { moderation: Object.fromEntries(links.map(({ action, url }) => [action, url])) } : {}),
  };
}
