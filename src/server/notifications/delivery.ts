import type { NotificationSettings } from '../settings/environment.ts';

/**
 * The two ways out: an email over SMTP and a webhook POST. Each rejects when
 * the message was not accepted, and gives up within SEND_TIMEOUT_MS, well
 * inside the sender's lease, so that a hung server is a failure tried again
 * later rather than a send held forever.
 */

export const SEND_TIMEOUT_MS = 15_000;

export type SendEmail = (message: { subject: string; text: string }) => Promise<void>;

/** Sends emails through the SMTP server of the settings; nodemailer is loaded only for a site that sends email. */
export async function smtpSender({ smtpUrl, to, from }: NonNullable<NotificationSettings['email']>): Promise<{
  send: SendEmail;
  close: () => void;
}> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  return {
    send: async ({ subject, text }) => {
      await transport.sendMail({ from, to, subject, text });
    },
    close: () => {
      transport.close();
    },
  };
}

/** POSTs `body` as JSON to the webhook; rejects unless it answers 2xx. */
export async function postWebhook(url: string, body: unknown): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  // Drained either way, so that the connection can be kept.
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
}
