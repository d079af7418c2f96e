import { DEFAULT_LANGUAGE } from '../../i18n/languages.ts';
import { articlePath } from '../articles/catalog.ts';
import type { Notification } from '../store/types.ts';

/**
 * What the owner reads: a notification as a few lines of plain text, an
 * email holding a batch of them, and a webhook body. Only what the
 * notification holds is written (it never holds an address or a hash).
 */

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
      return `New ${notification.parentId === null ? 'comment' : 'reply'} by ${notification.author} on ${notification.articleSlug}`;
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

/** A notification as plain text: its headline, what was written, and its link. */
function textOf(notification: Notification, site: string): string {
  const link = linkOf(notification, site);
  return [headlineOf(notification), bodyOf(notification), ...(link === null ? [] : [link])].filter(Boolean).join('\n\n');
}

/** One email for a batch of notifications, oldest first. */
export function emailOf(notifications: readonly Notification[], site: string): { subject: string; text: string } {
  const [first] = notifications;
  const subject =
    notifications.length === 1 && first ? headlineOf(first) : `${notifications.length} new comments and requests on ${new URL(site).host}`;
  return { subject, text: notifications.map((notification) => textOf(notification, site)).join('\n\n———\n\n') };
}

/**
 * The JSON a webhook receives: `text` (Slack, ntfy) and `content` (Discord)
 * carry the message; the notification's own fields and its link sit beside.
 */
export function webhookBodyOf(notification: Notification, site: string): Record<string, unknown> {
  const text = textOf(notification, site);
  return { text, content: text.slice(0, DISCORD_CONTENT_LIMIT), ...notification, url: linkOf(notification, site) };
}
