import { FORM_PATHS } from '../../server/http/site-paths.ts';
import { showCaptcha, takeCaptchaToken } from './captcha.ts';

/**
 * What every write form of the site sends besides its own fields
 * (src/server/spam/form-verdict.ts): the captcha's token, the page's stamp,
 * and what the honeypot holds. One code path for the three forms.
 */

let pageStamp: Promise<string | null> | undefined;

/**
 * The page's form stamp, asked for the first time one of its forms is shown:
 * pages are built once and kept, so the moment they show a form is the
 * site's to sign then. Null when it could not be had: the write goes without.
 */
function formStamp(): Promise<string | null> {
  pageStamp ??= fetch(FORM_PATHS.stamp, { cache: 'no-store' })
    .then(async (answer) => (answer.ok ? ((await answer.json()) as { formStamp?: string }).formStamp : undefined))
    .then((stamp) => stamp ?? null)
    .catch(() => null);
  return pageStamp;
}

/** Readies a form that is now shown: its captcha, and the page's stamp. */
export function formShown(form: HTMLFormElement): void {
  void showCaptcha(form.querySelector('.captcha'));
  void formStamp();
}

/** The fields to add to a form's write. */
export async function formCheckFields(form: HTMLFormElement): Promise<{ captchaToken?: string; formStamp?: string; honeypot?: string }> {
  const [captchaToken, stamp] = await Promise.all([takeCaptchaToken(form), formStamp()]);
  const honeypot = form.querySelector<HTMLInputElement>('.form-trap input')?.value ?? '';
  return {
    ...(captchaToken ? { captchaToken } : {}),
    ...(stamp ? { formStamp: stamp } : {}),
    ...(honeypot ? { honeypot } : {}),
  };
}
