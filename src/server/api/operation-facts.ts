import { COMMENT_BURST_BAN, quotaOf, type QuotaName } from '../quotas/limits.ts';
import type { OperationDefinition } from './definition.ts';

const WINDOW_NAMES: Readonly<Record<number, string>> = { 60: 'minute', 3600: 'hour', 86_400: 'day' };

/** "100 per day": a quota as people say it. */
function quotaText(name: QuotaName): string {
  const { quota, windowSeconds } = quotaOf(name);
  return `${quota} per ${WINDOW_NAMES[windowSeconds] ?? `${windowSeconds} seconds`}`;
}

/** The rules a caller must know besides the fields, one sentence each: quota, captcha, cache. */
export function operationFacts({ quota, captcha, cacheControl }: OperationDefinition): string[] {
  const ban =
    quota === 'comments'
      ? ` ${COMMENT_BURST_BAN.comments} comments within ${COMMENT_BURST_BAN.windowSeconds / 60} minutes ban the reader from every write for ${COMMENT_BURST_BAN.banSeconds / 3600} hours.`
      : '';
  return [
    quota ? `Quota: ${quotaText(quota)} per reader, in a sliding window.${ban}` : 'Quota: none; reads are free.',
    captcha
      ? 'Captcha: `captchaToken` is required where the captcha is enabled (Turnstile or ALTCHA); `formStamp` and `honeypot`, which the site’s forms send, are checked when sent.'
      : 'Captcha: never.',
    `Cache-Control: \`${cacheControl}\`.`,
  ];
}
