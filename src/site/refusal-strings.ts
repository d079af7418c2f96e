import type { uiStrings } from '../i18n/ui.ts';
import { MAX_LINKS_PER_COMMENT } from '../server/spam/comment-text.ts';
import { REFUSAL_CODES } from '../server/api-frame/refusals.ts';

const REFUSALS = ['400', '403', '413', '415', '429', '5xx', 'offline'] as const;

/**
 * The messages of every refusal a write form can meet, for
 * src/site/client/write-api.ts's describeRefusal: by status, and by the
 * `code` of a refusal of spam defence, which says more than its status.
 */
export function refusalStrings(t: ReturnType<typeof uiStrings>): Record<string, string> {
  const byStatus = REFUSALS.map((status): [string, string] => [status, t(`form.refused.${status}`)]);
  const byCode = REFUSAL_CODES.map((code): [string, string] => [code, t(`form.refused.${code}`, { limit: MAX_LINKS_PER_COMMENT })]);
  return Object.fromEntries([...byStatus, ...byCode]);
}

/** The ALTCHA widget's words, in the page's language (src/site/client/altcha.ts). */
export function captchaStrings(t: ReturnType<typeof uiStrings>): Record<string, string> {
  return {
    label: t('captcha.label'),
    verifying: t('captcha.verifying'),
    verified: t('captcha.verified'),
    error: t('captcha.error'),
    expired: t('captcha.expired'),
    verificationRequired: t('captcha.required'),
    waitAlert: t('captcha.wait'),
  };
}
