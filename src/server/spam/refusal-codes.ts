import { CAPTCHA_CODES } from '../captcha/captcha.ts';

/**
 * The `code` a refused write's body may carry beside its message: what the
 * site's forms say in the reader's language (src/site/refusal-strings.ts),
 * and what /openapi.json lists.
 */
export const REFUSAL_CODES = ['honeypot', 'too_fast', 'form_stamp', 'too_many_links', 'repeated_comment', ...CAPTCHA_CODES] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];
