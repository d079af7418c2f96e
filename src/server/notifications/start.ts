import type { NotificationSettings } from '../settings/environment.ts';
import type { StoreEngine } from '../store/types.ts';
import { postWebhook, smtpSender } from './delivery.ts';
import { NotificationSender } from './sender.ts';

/**
 * Starts sending the outbox's notifications through the channels the
 * settings set up; null when none is. The returned stop waits for the sends
 * under way, then lets go of the SMTP connection.
 */
export async function startNotifications(
  store: StoreEngine,
  site: string,
  { email, webhookUrl }: NotificationSettings,
): Promise<(() => Promise<void>) | null> {
  if (!email && !webhookUrl) return null;
  const smtp = email ? await smtpSender(email) : undefined;
  const sender = new NotificationSender({
    store,
    site,
    ...(smtp && email ? { email: { send: smtp.send, intervalMs: email.intervalSeconds * 1000 } } : {}),
    ...(webhookUrl ? { webhook: (body: unknown) => postWebhook(webhookUrl, body) } : {}),
  });
  return async () => {
    await sender.stop();
    smtp?.close();
  };
}
