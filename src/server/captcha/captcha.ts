import type { CaptchaSettings } from '../settings/environment.ts';
import { refusal, type Refusal } from '../api-frame/refusals.ts';
import { verifyAltcha, type AltchaKeys, type SpendOnce } from './altcha.ts';

/** How long the provider may take before the write answers 502. */
const VERIFY_TIMEOUT_MS = 3000;

/**
 * A token's check: null when it passes (or the captcha is off), else the
 * refusal: `captcha_missing` or `captcha_rejected` (400), the server's
 * `captcha_misconfigured` (500: only one of the key and the secret is set),
 * `captcha_unreachable` (502: the provider is unreachable, slow or failing).
 */
export type CaptchaOutcome = Refusal | null;

export type CaptchaState = 'off' | 'on' | 'misconfigured';

/** What checking a token needs besides the settings: the reader's address for Turnstile, the keys and the spent nonces for ALTCHA. */
export interface CaptchaContext {
  remoteAddress: string;
  altchaKeys: AltchaKeys;
  spendOnce: SpendOnce;
}

/**
 * Turnstile is on when either key is set, and one without the other is the
 * owner's mistake (README.md, "Settings"); ALTCHA needs no key.
 */
export function captchaState({ provider, siteKey, secret }: CaptchaSettings): CaptchaState {
  if (provider === undefined) return 'off';
  return provider === 'altcha' || (siteKey && secret) ? 'on' : 'misconfigured';
}

const ALTCHA_REFUSALS = {
  rejected: 'The captcha token was rejected',
  expired: 'The captcha token has expired: solve a new challenge',
  used: 'The captcha token was used already: solve a new challenge',
} as const;

/** Checks a write's captcha token with the provider the settings name. */
export async function verifyCaptcha(
  settings: CaptchaSettings,
  token: string | undefined,
  context: CaptchaContext,
): Promise<CaptchaOutcome> {
  const state = captchaState(settings);
  if (state === 'off') return null;
  if (state === 'misconfigured') {
    return refusal('captcha_misconfigured', 'The captcha is misconfigured on the server: set both CAPTCHA_SITE_KEY and CAPTCHA_SECRET');
  }
  if (!token) return refusal('captcha_missing');
  if (settings.provider === 'altcha') {
    const verdict = await verifyAltcha(context.altchaKeys, token, context.spendOnce, Date.now());
    return verdict === 'solved' ? null : refusal('captcha_rejected', ALTCHA_REFUSALS[verdict]);
  }
  return verifyTurnstile(settings, token, context.remoteAddress);
}

/**
 * Checks a token with a Turnstile-compatible siteverify endpoint (POST
 * `secret`, `response`, `remoteip`; answer `{ success }`). `remoteAddress`
 * goes to the provider only, as its protocol asks, and is never kept.
 */
async function verifyTurnstile(settings: CaptchaSettings, token: string, remoteAddress: string): Promise<CaptchaOutcome> {
  let verification: Response;
  try {
    verification = await fetch(settings.verifyUrl, {
      method: 'POST',
      body: new URLSearchParams({ secret: settings.secret ?? '', response: token, remoteip: remoteAddress }),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
  } catch {
    return refusal('captcha_unreachable');
  }
  if (!verification.ok) return refusal('captcha_unreachable', `The captcha provider answered ${verification.status}`);
  const verdict = (await verification.json().catch(() => null)) as { success?: unknown } | null;
  if (verdict === null) return refusal('captcha_unreachable', 'The captcha provider answered something that is not JSON');
  return verdict.success === true ? null : refusal('captcha_rejected');
}
