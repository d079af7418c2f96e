import { randomInt, type KeyObject } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';

/**
 * ALTCHA, the captcha the site serves itself (docs/architecture.md,
 * "Readers, quotas and spam defence"): a page's widget fetches a challenge from the site
 * (`/captcha/challenge`), its browser finds the counter whose PBKDF2 key the
 * challenge names, and the write sends challenge and solution back as its
 * `captchaToken` (base64 JSON, as the widget makes it). No outside service,
 * no key to set: both HMAC secrets are derived from the salt.
 */

/** How long a challenge may be solved and sent: a reader may read a long article before writing. */
const ALTCHA_CHALLENGE_SECONDS = 1800;

/**
 * The work a challenge asks: PBKDF2-SHA-256 of `cost` rounds, tried up to a
 * random counter between `counter[0]` and `counter[1]` (a moment of a phone's
 * time; the server derives one key per challenge, and checks a solution with
 * one HMAC).
 */
const WORK = { algorithm: 'PBKDF2/SHA-256', cost: 1000, counter: [1000, 4000] } as const;

export interface AltchaKeys {
  /** Signs a challenge's parameters. */
  challenge: KeyObject;
  /** Signs the key that solves it, so that a solution is checked without deriving it again. */
  solution: KeyObject;
}

/** A new challenge, signed, expiring ALTCHA_CHALLENGE_SECONDS from now. */
export function altchaChallenge(keys: AltchaKeys, nowMs: number): Promise<Challenge> {
  return createChallenge({
    algorithm: WORK.algorithm,
    cost: WORK.cost,
    counter: randomInt(WORK.counter[0], WORK.counter[1] + 1),
    deriveKey,
    expiresAt: Math.floor(nowMs / 1000) + ALTCHA_CHALLENGE_SECONDS,
    hmacSignatureSecret: keys.challenge.export().toString('hex'),
    hmacKeySignatureSecret: keys.solution.export().toString('hex'),
  });
}

/** The widget's payload; its parameters are kept as sent, since their signature covers them exactly. */
const payload = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.string(),
      nonce: z.string().regex(/^[0-9a-f]{1,64}$/),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      expiresAt: z.number(),
    }),
    signature: z.string(),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string() }),
});

/** Marks a key spent, true the first time within `seconds` (the quotas' SpentKeys). */
export type SpendOnce = (key: string, seconds: number) => Promise<boolean>;

/**
 * Checks an ALTCHA token: a challenge this site signed, not expired, solved,
 * and not sent before (its nonce is spent until the challenge expires, where
 * the quotas are kept: every instance sees it with REDIS_URL).
 */
export async function verifyAltcha(
  keys: AltchaKeys,
  token: string,
  spendOnce: SpendOnce,
  nowMs: number,
): Promise<'solved' | 'rejected' | 'expired' | 'used'> {
  let sent: z.infer<typeof payload>;
  try {
    sent = payload.parse(JSON.parse(Buffer.from(token, 'base64').toString('utf8')));
  } catch {
    return 'rejected';
  }
  const { challenge, solution } = sent;
  const secondsLeft = challenge.parameters.expiresAt - nowMs / 1000;
  if (secondsLeft <= 0) return 'expired';
  const result = await verifySolution({
    challenge,
    solution,
    deriveKey,
    hmacSignatureSecret: keys.challenge.export().toString('hex'),
    hmacKeySignatureSecret: keys.solution.export().toString('hex'),
  }).catch(() => null);
  if (!result?.verified) return result?.expired ? 'expired' : 'rejected';
  return (await spendOnce(`altcha:${challenge.parameters.nonce}`, Math.ceil(secondsLeft))) ? 'solved' : 'used';
}
