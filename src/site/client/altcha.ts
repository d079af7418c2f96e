// ALTCHA's widget, loaded by captcha.ts the first time a form that needs it
// is shown: the site's own script, its worker a file of the site's own (the
// Content-Security-Policy allows no other), its challenge from the site.
import 'altcha/external';
import type { AltchaWidgetElement } from 'altcha';
import stylesheet from 'altcha/altcha.css?url';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { FORM_PATHS } from '../../server/http/site-paths.ts';

$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

/**
 * Puts a widget in `container`, speaking the page's language with the
 * site's own words: it solves its challenge once the reader is in the form
 * (`auto: onfocus`), or when the form is sent. A reader already in the form
 * when the widget arrives gives it no focus to see: it starts at once then.
 */
export function showAltcha(container: HTMLElement, strings: Record<string, string>, lang: string): void {
  // A file of its own, linked once a widget is shown: imported as a style, the build would put it in every page.
  if (!document.querySelector(`link[href="${stylesheet}"]`))
    document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: stylesheet }));
  $altcha.i18n.set(lang, strings);
  const widget = document.createElement('altcha-widget');
  widget.setAttribute('challenge', FORM_PATHS.captchaChallenge);
  widget.setAttribute('auto', 'onfocus');
  widget.setAttribute('language', lang);
  widget.setAttribute('configuration', JSON.stringify({ hideFooter: true, hideLogo: true, humanInteractionSignature: false }));
  container.append(widget);
  // The widget sets itself up once connected, after this turn; it is asked to start in the next frame, when it can.
  requestAnimationFrame(() => {
    if (container.closest('form')?.contains(document.activeElement) && stateOf(widget) === 'unverified') void widget.verify();
  });
}

/** The widget's state, by its name (`verifying`, `verified`…): the enum that names it is not in the widget's bundle. */
function stateOf(widget: AltchaWidgetElement): string {
  return widget.getState();
}

/** Resolves once the widget is no longer solving. */
function settled(widget: AltchaWidgetElement): Promise<void> {
  if (stateOf(widget) !== 'verifying') return Promise.resolve();
  return new Promise((resolve) => {
    const changed = () => {
      if (stateOf(widget) === 'verifying') return;
      widget.removeEventListener('statechange', changed);
      resolve();
    };
    widget.addEventListener('statechange', changed);
  });
}

/**
 * The solved challenge (the widget's hidden field), solving it now if the
 * reader was quicker than the widget; then a fresh widget, a token being
 * good for one write.
 */
export async function takeAltchaToken(container: HTMLElement): Promise<string | undefined> {
  const widget = container.querySelector('altcha-widget');
  if (!widget) return undefined;
  await settled(widget);
  const payload =
    stateOf(widget) === 'verified'
      ? widget.querySelector<HTMLInputElement>('input[type="hidden"]')?.value
      : (await widget.verify())?.payload;
  widget.reset();
  return payload || undefined;
}
