import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { NotificationSettings } from '../settings/environment.ts';

/**
 * The two ways out: an email over SMTP and a webhook POST. Each rejects when
 * the message was not accepted, or at once when `signal` aborts (the send's
 * deadline, or a stopping server's), so that a hung server is a failure tried
 * again later rather than a send held forever.
 */

export type SendEmail = (message: { subject: string; text: string }, signal: AbortSignal) => Promise<void>;

/** Posts a webhook body as JSON. */
export type PostWebhook = (body: unknown, signal: AbortSignal) => Promise<void>;

/** Sends emails through the SMTP server of the settings; nodemailer is loaded only for a site that sends email. */
export async function smtpSender({ smtpUrl, to, from }: NonNullable<NotificationSettings['email']>): Promise<{
  send: SendEmail;
  close: () => void;
}> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(smtpUrl);
  return {
    send: async ({ subject, text }, signal) => {
      await transport.sendMail({ from, to, subject, text, signal });
    },
    close: () => {
      transport.close();
    },
  };
}

/**
 * Connections kept open between webhooks: a burst's webhooks go one after
 * the other to the same endpoint.
 */
const KEPT_CONNECTIONS = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 1 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 1 }),
};

/**
 * POSTs `body` as JSON to the webhook; rejects unless it answers 2xx. By
 * node:http rather than fetch, which costs the site several times the CPU
 * for each post. A redirect is not followed: it is a failure, logged with
 * where it points, so that the owner sets the URL it names. A user and
 * password in the URL go as basic authentication.
 */
export function postWebhook(url: string, body: unknown, signal: AbortSignal): Promise<void> {
  const target = new URL(url);
  const json = JSON.stringify(body);
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const call = (secure ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        agent: secure ? KEPT_CONNECTIONS.https : KEPT_CONNECTIONS.http,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) },
        signal,
      },
      (answer) => {
        // Drained either way, so that the connection can be kept.
        answer.resume();
        answer.once('error', reject);
        answer.once('end', () => {
          const status = answer.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else if (status >= 300 && status < 400)
            reject(
              new Error(
                `the webhook answered ${status}, a redirect to ${answer.headers.location ?? 'nowhere'}; NOTIFY_WEBHOOK_URL should name where it points`,
              ),
            );
          else reject(new Error(`the webhook answered ${status}`));
        });
      },
    );
    call.once('error', reject);
    call.end(json);
  });
}
