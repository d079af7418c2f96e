import { checkFigures, type CityFormStrings } from './city-figures.ts';
import { formShown } from './form-checks.ts';
import { fillIn, islandStrings } from './island.ts';
import { refuse, sendWrite, thank } from './write-form.ts';

/**
 * The city form: a reader's figures for a city (the one picked in its
 * typeahead), checked before they are sent (city-figures.ts), sent as every
 * write form sends (write-form.ts), and thanked for by the city's name.
 */
export class CitySubmissionForm extends HTMLElement {
  connectedCallback(): void {
    const form = this.querySelector('form') as HTMLFormElement;
    formShown(form);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#send(form);
    });
  }

  async #send(form: HTMLFormElement): Promise<void> {
    const strings = islandStrings<CityFormStrings>(this);
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value;
    const amounts = [...form.querySelectorAll<HTMLInputElement>('input[type="number"]')].map((input) => ({
      name: input.name,
      label: input.labels?.[0]?.textContent ?? input.name,
      value: input.value,
    }));
    const checked = checkFigures(field('cityId'), amounts, strings);
    if (checked.refusal !== null) {
      refuse(form, checked.refusal);
      return;
    }
    const city = field('city');
    const body = { city, cityId: field('cityId'), country: field('country'), currency: field('currency'), ...checked.amounts };
    if (await sendWrite(form, '/api/city-submissions', body, strings)) thank(form, fillIn(strings.thanks, { city }));
  }
}
