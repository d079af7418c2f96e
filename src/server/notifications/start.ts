import type { KeyObject } from 'node:crypto';
import { moderationLinks } from '../owner/moderation-links.ts';
import type { NotificationSettings } from '../settings/environment.ts';
import type { OutboxStore } from '../store/roles.ts';
import { postWebhook, smtpSender } from './delivery.ts';
import type { LinksOf } from './message.ts';
import { NotificationSender } from './sender.ts';

/**
 * Starts sending the outbox's notifications through the channels the
 * settings set up; null when none is. A comment's notification carries its
 * moderation links, signed with `moderationKey` when it is sent and valid 7
 * days from then. The returned stop gives the sends under way a few seconds
 * (sender.ts), then lets go of the SMTP connection.
 */
export async function startNotifications(
  store: OutboxStore,
  site: string,
  moderationKey: KeyObject,
  { email, webhookUrl }: NotificationSettings,
): Promise<(() => Promise<void>) | null> {
  if (!email && !webhookUrl) return null;
  const smtp = email ? await smtpSender(email) : undefined;
  const linksOf: LinksOf = (notification) =>
    notification.kind === 'comment' ? moderationLinks(moderationKey, site, notification, Date.now()) : [];
  const sender = new NotificationSender({
    store,
    site,
    linksOf,
    ...(smtp && email ? { email: { send: smtp.send, intervalMs: email.intervalSeconds * 1000 } } : {}),
    ...(webhookUrl ? { webhook: (body: unknown, signal: AbortSignal) => postWebhook(webhookUrl, body, signal) } : {}),
  });
  return async () => {
    await sender.stop();
    smtp?.close();
  };
}
