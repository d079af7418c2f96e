import { DEFAULT_LANGUAGE } from '../../i18n/languages.ts';
import { articlePath } from '../articles/catalog.ts';
import type { ModerationLink } from '../moderation/links.ts';
import type { ModerationAction } from '../store/moderation.ts';
import type { Notification } from '../store/types.ts';

/**
 * What the owner reads: a notification as a few lines of plain text, an
 * email holding a batch of them, and a webhook body. Only what the
 * notification holds is written (it never holds an address or a hash),
 * with a comment's moderation links.
 */

/** The signed moderation links of a notification: a comment's approve (while it waits), delete and ban; none for anything else. */
export type LinksOf = (notification: Notification) => ModerationLink[];

const LINK_LABELS: Record<ModerationAction, string> = { approve: 'Approve', delete: 'Delete', ban: 'Ban the writer' };

/** Discord refuses a message whose `content` is longer. */
const DISCORD_CONTENT_LIMIT = 2000;

/** The page a notification is about, if any. */
function linkOf(notification: Notification, site: string): string | null {
  switch (notification.kind) {
    case 'comment':
      return `${site}${articlePath(notification.articleSlug, DEFAULT_LANGUAGE)}`;
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
      return `New topic request: ${notification.requestTitle}`;
    case 'bugReport':
      return 'New bug report';
    case 'citySubmission':
      return `New city submission: ${notification.city}, ${notification.countryName}`;
  }
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
  }
}

/** A notification as plain text: its headline, what was written, its link, and its moderation links, one a line. */
function textOf(notification: Notification, site: string, links: readonly ModerationLink[]): string {
  const link = linkOf(notification, site);
  const moderation = links.map(({ action, url }) => `${LINK_LABELS[action]}: ${url}`).join('\n');
  return [headlineOf(notification), bodyOf(notification), ...(link === null ? [] : [link]), moderation].filter(Boolean).join('\n\n');
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
 * The JSON a webhook receives: `text` (Slack, ntfy) and `content` (Discord)
 * carry the message; the notification's own fields, its link and its
 * moderation links (`moderation`: action → URL) sit beside.
 */
export function webhookBodyOf(notification: Notification, site: string, linksOf: LinksOf): Record<string, unknown> {
  const links = linksOf(notification);
  const text = textOf(notification, site, links);
  return {
    text,
    content: text.slice(0, DISCORD_CONTENT_LIMIT),
    ...notification,
    url: linkOf(notification, site),
    ...(links.length > 0 ? { moderation: Object.fromEntries(links.map(({ action, url }) => [action, url])) } : {}),
  };
}
