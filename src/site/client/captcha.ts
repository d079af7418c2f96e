/** Turnstile's script; loaded only once a form that needs it is on screen, and only when the captcha is on. */
const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

interface Turnstile {
  render(container: HTMLElement, options: { sitekey: string; language?: string }): string;
  reset(widget?: string): void;
}

let loading: Promise<Turnstile> | undefined;

function turnstile(): Promise<Turnstile> {
  loading ??= new Promise((resolve, reject) => {
    const ready = () => {
      const loaded = (window as { turnstile?: Turnstile }).turnstile;
      if (loaded) resolve(loaded);
      else reject(new Error('Turnstile did not load'));
    };
    if ((window as { turnstile?: Turnstile }).turnstile) {
      ready();
      return;
    }
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.addEventListener('load', ready);
    script.addEventListener('error', () => {
      reject(new Error('Turnstile did not load'));
    });
    document.head.append(script);
  });
  return loading;
}

/** The field Turnstile adds to its form: its token. */
const TURNSTILE_FIELD = 'cf-turnstile-response';

/** The fields the widgets add to a form (Turnstile's, ALTCHA's by default), which are none of the form's own. */
export const CAPTCHA_FIELDS: readonly string[] = [TURNSTILE_FIELD, 'altcha'];

/**
 * Puts the captcha widget in a form's `container` (FormChecks.astro), as
 * the build set it up: Turnstile (`data-provider="turnstile"`, with its site
 * key), its script loaded from Cloudflare the first time; or ALTCHA, the
 * site's own script, loaded the first time a form that needs it is shown.
 */
export async function showCaptcha(container: HTMLElement | null): Promise<void> {
  const { provider, siteKey, strings } = container?.dataset ?? {};
  if (!container || container.dataset['rendered'] || (provider !== 'altcha' && !(provider === 'turnstile' && siteKey))) return;
  container.dataset['rendered'] = 'true';
  const lang = document.documentElement.lang || 'en';
  if (provider === 'altcha') {
    (await import('./altcha.ts')).showAltcha(container, JSON.parse(strings ?? '{}') as Record<string, string>, lang);
    return;
  }
  container.dataset['widget'] = (await turnstile()).render(container, { sitekey: siteKey ?? '', language: lang });
}

/** The form's captcha token, if any, as the API's `captchaToken`; and a fresh widget for the next write, since a token is good for one. */
export async function takeCaptchaToken(form: HTMLFormElement): Promise<string | undefined> {
  const container = form.querySelector<HTMLElement>('.captcha');
  if (container?.dataset['provider'] === 'altcha') return (await import('./altcha.ts')).takeAltchaToken(container);
  const token = new FormData(form).get(TURNSTILE_FIELD);
  const widget = container?.dataset['widget'];
  if (widget) (window as { turnstile?: Turnstile }).turnstile?.reset(widget);
  return typeof token === 'string' && token !== '' ? token : undefined;
}
