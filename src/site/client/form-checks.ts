import { FORM_PATHS } from '../../server/http/site-paths.ts';
import { CAPTCHA_FIELDS, showCaptcha, takeCaptchaToken } from './captcha.ts';

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

/** The checks a write carries, each only when there is one: the API takes an absent field as none. */
export interface CheckFields {
  captchaToken?: string;
  formStamp?: string;
  honeypot?: string;
}

/** The fields of the checks as a write sends them: the captcha's token, the page's stamp, what the honeypot holds; none that is empty. */
export function checkFields(captchaToken: string | undefined, stamp: string | null, honeypot: string): CheckFields {
  return {
    ...(captchaToken ? { captchaToken } : {}),
    ...(stamp ? { formStamp: stamp } : {}),
    ...(honeypot ? { honeypot } : {}),
  };
}

/** The fields to add to a form's write. */
export async function formCheckFields(form: HTMLFormElement): Promise<CheckFields> {
  const [captchaToken, stamp] = await Promise.all([takeCaptchaToken(form), formStamp()]);
  return checkFields(captchaToken, stamp, form.querySelector<HTMLInputElement>('.form-trap input')?.value ?? '');
}

/**
 * A form's own fields as its write sends them: each named field that holds
 * more than blanks, as typed, none of the fields the captcha widgets add;
 * and `pagePath` when the form asks for the page's own path.
 */
export function ownFields(fields: Iterable<[string, FormDataEntryValue]>, pagePath: string | null = null): Record<string, string> {
  const own: Record<string, string> = {};
  for (const [name, value] of fields) {
    if (typeof value === 'string' && value.trim() !== '' && !CAPTCHA_FIELDS.includes(name)) own[name] = value;
  }
  if (pagePath !== null) own['pagePath'] = pagePath;
  return own;
}
