import { formCheckFields, formShown, ownFields } from './form-checks.ts';
import { islandStrings } from './island.ts';
import { describeRefusal, postJson, type Refusal } from './write-api.ts';

/** What a write form says, in the page's language; `held` when the write waits for approval (its answer's status `waiting`). */
export interface WriteFormStrings {
  sending: string;
  thanks: string;
  held?: string;
  refusals: Record<string, string>;
}

/** The event a write form sends (bubbling) once a write went through, for the page's other islands. */
export const WRITE_STORED_EVENT = 'write-stored';

/** What WRITE_STORED_EVENT tells: the operation's path, its answer, and the fields sent. */
export interface WriteStored {
  path: string;
  answer: Record<string, unknown>;
  sent: Record<string, unknown>;
}

/** Says `message` in the form's status line, as an error or not. */
export function showFormMessage(form: HTMLFormElement, message: string, isError: boolean): void {
  const status = form.querySelector('.form-message') as HTMLElement;
  status.textContent = message;
  status.classList.toggle('error', isError);
}

/** Says why the form was not sent, and focuses the field that is the reason, if one is. */
export function refuse(form: HTMLFormElement, refusal: Refusal): void {
  showFormMessage(form, refusal.message, true);
  if (refusal.field !== null) form.querySelector<HTMLElement>(`[name="${CSS.escape(refusal.field)}"]`)?.focus();
}

/**
 * Sends a form's write as every write form does: its button disabled and
 * `sending` said meanwhile, the form's checks added to `body`
 * (form-checks.ts); a refusal is said in the page's language, focusing the
 * field the response names. Resolves with the response of a write that went
 * through, for the form to say so in its own words; null otherwise.
 */
export async function sendWrite(
  form: HTMLFormElement,
  path: string,
  body: Record<string, unknown>,
  strings: Pick<WriteFormStrings, 'sending' | 'refusals'>,
): Promise<Record<string, unknown> | null> {
  const button = form.querySelector('button[type="submit"]') as HTMLButtonElement;
  button.disabled = true;
  showFormMessage(form, strings.sending, false);
  const outcome = await postJson(path, { ...body, ...(await formCheckFields(form)) });
  button.disabled = false;
  if (outcome.ok) return outcome.body;
  refuse(form, describeRefusal(outcome, strings.refusals, document.documentElement.lang || 'en'));
  return null;
}

/** Says the write went through, and empties the form for the next one (its fields to their defaults). */
export function thank(form: HTMLFormElement, message: string): void {
  showFormMessage(form, message, false);
  form.reset();
}

/**
 * A small form that sends one write (a topic request, a bug report): its
 * own fields as JSON, the page's own path where it asks for one. It is
 * disabled while sending, says in place that it went through, and says why
 * when it did not.
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
    const strings = islandStrings<WriteFormStrings>(this);
    const path = this.dataset['path'] ?? '';
    const body = ownFields(new FormData(form), this.dataset['sendsPath'] !== undefined ? location.pathname : null);
    const answer = await sendWrite(form, path, body, strings);
    if (!answer) return;
    thank(form, answer['status'] === 'waiting' && strings.held ? strings.held : strings.thanks);
    const detail: WriteStored = { path, answer, sent: body };
    this.dispatchEvent(new CustomEvent(WRITE_STORED_EVENT, { bubbles: true, detail }));
  }
}
