import { altchaChallenge } from '../captcha/altcha.ts';
import { FORM_PATHS } from '../http/site-paths.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { issueFormStamp } from './form-stamp.ts';

/** A response of the front server's: a status and a JSON body. */
interface FormResponse {
  status: number;
  body: string;
}

/**
 * The answers a form asks for when it is shown, by path (FORM_PATHS): its
 * stamp, `{ "formStamp": "…" }`, and, where ALTCHA is the captcha, a new
 * challenge. Pages are built once and kept; these are made at each request
 * and never kept, by the server or anyone else.
 */
export function formResponses(runtime: Runtime): ReadonlyMap<string, () => Promise<FormResponse>> {
  const { keys } = runtime;
  const answers = new Map<string, () => Promise<FormResponse>>([
    [
      FORM_PATHS.stamp,
      () => Promise.resolve({ status: 200, body: JSON.stringify({ formStamp: issueFormStamp(keys.formStamp, Date.now()) }) }),
    ],
  ]);
  if (runtime.captcha.provider === 'altcha') {
    const altchaKeys = { challenge: keys.captchaChallenge, solution: keys.captchaSolution };
    answers.set(FORM_PATHS.captchaChallenge, async () => ({
      status: 200,
      body: JSON.stringify(await altchaChallenge(altchaKeys, Date.now())),
    }));
  }
  return answers;
}
