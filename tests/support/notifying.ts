import assert from 'node:assert/strict';
import type { WebhookSink } from './notification-sinks.ts';
import type { RunningSite } from './site.ts';
import { newReaderAddress, post } from './writes.ts';

/** What the notification tests write, and how they read a site's notification metrics. */

export const ARTICLE = 'the-price-of-a-beer';
export const OWNER = 'owner@example.test';

/** The site's settings for notifications to these sinks; emails at most every `emailSeconds`. */
export function notifying(smtpPort: number, emailSeconds: number, webhook?: WebhookSink): Record<string, string> {
  return {
    TRUST_PROXY: '1',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    NOTIFY_EMAIL_TO: OWNER,
    NOTIFY_EMAIL_FROM: 'site@example.test',
    NOTIFY_EMAIL_SECONDS: String(emailSeconds),
    ...(webhook ? { NOTIFY_WEBHOOK_URL: webhook.url } : {}),
  };
}

/** Writes a comment on ARTICLE as a new reader; resolves with its id. */
export async function comment(site: RunningSite, body: string, address = newReaderAddress()): Promise<string> {
  const answer = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body }, address);
  assert.equal(answer.status, 200, answer.text);
  return String(answer.json()['id']);
}

/** One metric's value, as the metrics listener at `port` reads it now. */
export async function metric(port: number, sample: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  return line === undefined ? Number.NaN : Number(line.slice(sample.length + 1));
}
