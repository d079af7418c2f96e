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

/**
 * Puts the captcha widget in `container` when the captcha is on (the page's
 * `data-captcha-site-key`), loading Turnstile's script the first time.
 * The widget adds its token to the form as `cf-turnstile-response`.
 */
export async function showCaptcha(container: HTMLElement | null): Promise<void> {
  const siteKey = document.documentElement.dataset['captchaSiteKey'];
  if (!siteKey || !container || container.dataset['rendered']) return;
  container.dataset['rendered'] = 'true';
  const widget = (await turnstile()).render(container, { sitekey: siteKey, language: document.documentElement.lang });
  container.dataset['widget'] = widget;
}

/** The form's captcha token, if any, as the API's `captchaToken`; and a fresh widget for the next write, since a token is good for one. */
export function takeCaptchaToken(form: HTMLFormElement): string | undefined {
  const token = new FormData(form).get('cf-turnstile-response');
  const widget = form.querySelector<HTMLElement>('.captcha')?.dataset['widget'];
  if (widget) (window as { turnstile?: Turnstile }).turnstile?.reset(widget);
  return typeof token === 'string' && token !== '' ? token : undefined;
}
