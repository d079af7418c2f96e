import type { CaptchaSettings } from '../settings/environment.ts';
import { verifyAltcha, type AltchaKeys, type SpendOnce } from './altcha.ts';

/** How long the provider may take before the write answers 502. */
const VERIFY_TIMEOUT_MS = 3000;

/** What a refused token's answer says besides its message, for a form to say it in the reader's language. */
export const CAPTCHA_CODES = ['captcha_missing', 'captcha_rejected'] as const;
type CaptchaCode = (typeof CAPTCHA_CODES)[number];

export type CaptchaOutcome =
  | { ok: true }
  /** 400: no token, or the provider said no. */
  | { ok: false; status: 400; code: CaptchaCode; message: string }
  /** 500: only one of the key and the secret is set. */
  | { ok: false; status: 500; message: string }
  /** 502: the provider is unreachable, slow or failing. */
  | { ok: false; status: 502; message: string };

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

/** Checks a write's captcha token with the provider the settings name; `ok` when the captcha is off. */
export async function verifyCaptcha(
  settings: CaptchaSettings,
  token: string | undefined,
  context: CaptchaContext,
): Promise<CaptchaOutcome> {
  const state = captchaState(settings);
  if (state === 'off') return { ok: true };
  if (state === 'misconfigured') {
    return { ok: false, status: 500, message: 'The captcha is misconfigured on the server: set both CAPTCHA_SITE_KEY and CAPTCHA_SECRET' };
  }
  if (!token) return { ok: false, status: 400, code: 'captcha_missing', message: 'captchaToken is required' };
  if (settings.provider === 'altcha') {
    const verdict = await verifyAltcha(context.altchaKeys, token, context.spendOnce, Date.now());
    return verdict === 'solved' ? { ok: true } : { ok: false, status: 400, code: 'captcha_rejected', message: ALTCHA_REFUSALS[verdict] };
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
    return { ok: false, status: 502, message: 'The captcha provider could not be reached' };
  }
  if (!verification.ok) return { ok: false, status: 502, message: `The captcha provider answered ${verification.status}` };
  const verdict = (await verification.json().catch(() => null)) as { success?: unknown } | null;
  if (verdict === null) return { ok: false, status: 502, message: 'The captcha provider answered something that is not JSON' };
  return verdict.success === true
    ? { ok: true }
    : { ok: false, status: 400, code: 'captcha_rejected', message: 'The captcha token was rejected' };
}
