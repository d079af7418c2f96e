import { formCheckFields, formShown, type CheckFields } from './form-checks.ts';

/**
 * The newsletter's subscribe form (SubscribeForm.astro), which posts itself:
 * without JavaScript it sends its address and language, and POST /subscribe
 * takes it as a write without a stamp (src/server/spam/form-verdict.ts).
 * With it, the form is readied when shown (the page's stamp, the captcha),
 * and its submission waits for the checks every write form carries, added
 * as fields of their own (none that is empty), then goes as the browser
 * posts a form: the answer is the page it leads to.
 */
export class SubscribeForm extends HTMLElement {
  connectedCallback(): void {
    const form = this.querySelector('form') as HTMLFormElement;
    formShown(form);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#post(form);
    });
  }

  async #post(form: HTMLFormElement): Promise<void> {
    const button = form.querySelector('button[type="submit"]') as HTMLButtonElement;
    button.disabled = true;
    // Checks that could not be had are left out: the post goes as it would without JavaScript, and /subscribe decides.
    const checks: CheckFields = await formCheckFields(form).catch(() => ({}));
    form.querySelectorAll('input[data-check]').forEach((field) => {
      field.remove();
    });
    for (const name of ['captchaToken', 'formStamp', 'honeypot'] as const) {
      const value = checks[name];
      if (value === undefined) continue;
      const field = document.createElement('input');
      field.type = 'hidden';
      field.name = name;
      field.value = value;
      field.dataset['check'] = '';
      form.append(field);
    }
    button.disabled = false;
    // submit(), not requestSubmit(): no second submit event, and the fields were checked before the first.
    form.submit();
  }
}
