import type { CaptchaSettings } from '../settings/environment.ts';

/** How long the provider may take before the write answers 502. */
const VERIFY_TIMEOUT_MS = 3000;

export type CaptchaOutcome =
  | { ok: true }
  /** 400: no token, or the provider said no. */
  | { ok: false; status: 400; message: string }
  /** 500: only one of the key and the secret is set. */
  | { ok: false; status: 500; message: string }
  /** 502: the provider is unreachable, slow or failing. */
  | { ok: false; status: 502; message: string };

export type CaptchaState = 'off' | 'on' | 'misconfigured';

/** Captcha is on when either key is set; one without the other is the owner's mistake (docs/decisions.md, Settings). */
export function captchaState({ siteKey, secret }: CaptchaSettings): CaptchaState {
  if (!siteKey && !secret) return 'off';
  return siteKey && secret ? 'on' : 'misconfigured';
}

/**
 * Checks a write's captcha token with a Turnstile-compatible siteverify
 * endpoint (POST `secret`, `response`, `remoteip`; answer `{ success }`).
 * `remoteAddress` goes to the provider only, as its protocol asks, and is
 * never kept.
 */
export async function verifyCaptcha(settings: CaptchaSettings, token: string | undefined, remoteAddress: string): Promise<CaptchaOutcome> {
  const state = captchaState(settings);
  if (state === 'off') return { ok: true };
  if (state === 'misconfigured') {
    return { ok: false, status: 500, message: 'The captcha is misconfigured on the server: set both CAPTCHA_SITE_KEY and CAPTCHA_SECRET' };
  }
  if (!token) return { ok: false, status: 400, message: 'captchaToken is required' };
  let answer: Response;
  try {
    answer = await fetch(settings.verifyUrl, {
      method: 'POST',
      body: new URLSearchParams({ secret: settings.secret ?? '', response: token, remoteip: remoteAddress }),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, status: 502, message: 'The captcha provider could not be reached' };
  }
  if (!answer.ok) return { ok: false, status: 502, message: `The captcha provider answered ${answer.status}` };
  const verdict = (await answer.json().catch(() => null)) as { success?: unknown } | null;
  if (verdict === null) return { ok: false, status: 502, message: 'The captcha provider answered something that is not JSON' };
  return verdict.success === true ? { ok: true } : { ok: false, status: 400, message: 'The captcha token was rejected' };
}
