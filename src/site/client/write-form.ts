import { CAPTCHA_FIELDS } from './captcha.ts';
import { formCheckFields, formShown } from './form-checks.ts';
import { describeRefusal, postJson } from './write-api.ts';

/** What a write form says, in the page's language. */
export interface WriteFormStrings {
  sending: string;
  thanks: string;
  refusals: Record<string, string>;
}

/**
 * A small form that sends one write (a topic request, a bug report): its
 * named fields as JSON, the page's own path where it asks for one. It is
 * disabled while sending, says in place that it went through, and says why
 * when it did not, focusing the field the answer names.
 */
export class WriteForm extends HTMLElement {
  connectedCallback(): void {
    const form = this.querySelector('form') as HTMLFormElement;
    // A form folded away (the footer's bug report) is readied when opened.
    const folded = this.closest('details');
    const shown = () => {
      formShown(form);
    };
    if (folded) folded.addEventListener('toggle', shown, { once: true });
    else shown();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#send(form);
    });
  }

  async #send(form: HTMLFormElement): Promise<void> {
    const strings = JSON.parse(this.dataset['strings'] ?? '{}') as WriteFormStrings;
    const status = form.querySelector('.form-message') as HTMLElement;
    const button = form.querySelector('button[type="submit"]') as HTMLButtonElement;
    const body: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim() !== '' && !CAPTCHA_FIELDS.includes(name)) body[name] = value;
    }
    if (this.dataset['sendsPath'] !== undefined) body['pagePath'] = location.pathname;
    button.disabled = true;
    status.classList.remove('error');
    status.textContent = strings.sending;
    const outcome = await postJson(this.dataset['path'] ?? '', { ...body, ...(await formCheckFields(form)) });
    button.disabled = false;
    if (outcome.ok) {
      status.textContent = strings.thanks;
      this.dispatchEvent(new CustomEvent('written', { bubbles: true, detail: body }));
      form.reset();
      return;
    }
    const refusal = describeRefusal(outcome, strings.refusals, document.documentElement.lang || 'en');
    status.textContent = refusal.message;
    status.classList.add('error');
    const field = refusal.field === null ? null : form.querySelector<HTMLElement>(`[name="${CSS.escape(refusal.field)}"]`);
    field?.focus();
  }
}
