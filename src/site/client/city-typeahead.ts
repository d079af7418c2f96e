import type { CityResult } from '../../server/cities/city-result.ts';
import { CITY_SEARCH_TOOL, cityOption, listAnnouncement, searchCities, typeaheadQuery, type TypeaheadStrings } from './city-search.ts';
import { islandStrings } from './island.ts';
import { registerPageTools } from './page-tools.ts';

/** How long typing pauses before the typeahead asks. */
const DEBOUNCE_MS = 150;

/**
 * A city combobox over GET /api/city-search (ARIA 1.2 combobox with a
 * listbox popup): debounced, arrow keys move, Enter picks, Escape closes. The
 * picked city's id and country go to hidden inputs of the surrounding form.
 * It offers the page's agent the same search as a tool (search_cities).
 */
export class CityTypeahead extends HTMLElement {
  #strings!: TypeaheadStrings;
  #input!: HTMLInputElement;
  #list!: HTMLUListElement;
  #status!: HTMLElement;
  #results: CityResult[] = [];
  #active = -1;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #latest = 0;

  connectedCallback(): void {
    this.#strings = islandStrings<TypeaheadStrings>(this);
    this.#input = this.querySelector('[role="combobox"]') as HTMLInputElement;
    this.#list = this.querySelector('[role="listbox"]') as HTMLUListElement;
    this.#status = this.querySelector('[role="status"]') as HTMLElement;
    this.#input.addEventListener('input', () => {
      this.#choose(null);
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => void this.#search(), DEBOUNCE_MS);
    });
    this.#input.addEventListener('keydown', (event) => {
      this.#onKey(event);
    });
    this.#input.addEventListener('blur', () => {
      // Let a click on an option land before the list closes.
      setTimeout(() => {
        this.#close();
      }, 150);
    });
    this.#list.addEventListener('mousedown', (event) => {
      event.preventDefault();
    });
    this.#list.addEventListener('click', (event) => {
      const option = (event.target as HTMLElement).closest('[role="option"]');
      if (option) this.#pick(Number(option.getAttribute('data-index')));
    });
    registerPageTools([CITY_SEARCH_TOOL]);
  }

  async #search(): Promise<void> {
    const query = typeaheadQuery(this.#input.value);
    const request = ++this.#latest;
    const results = query === null ? [] : await searchCities(query, document.documentElement.lang).catch(() => []);
    if (request !== this.#latest) return; // an older answer arriving late
    this.#results = results;
    this.#render();
  }

  #render(): void {
    this.#list.replaceChildren(
      ...this.#results.map((result, index) => {
        const option = document.createElement('li');
        option.id = `city-option-${index}`;
        option.setAttribute('role', 'option');
        option.setAttribute('data-index', String(index));
        option.setAttribute('aria-selected', 'false');
        option.dir = 'auto';
        option.textContent = cityOption(result);
        return option;
      }),
    );
    this.#active = -1;
    this.#input.removeAttribute('aria-activedescendant');
    const open = this.#results.length > 0;
    this.#list.hidden = !open;
    this.#input.setAttribute('aria-expanded', String(open));
    this.#status.textContent = listAnnouncement(this.#input.value, this.#results.length, this.#strings);
  }

  #onKey(event: KeyboardEvent): void {
    const open = !this.#list.hidden;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        if (this.#results.length > 0) {
          this.#list.hidden = false;
          this.#input.setAttribute('aria-expanded', 'true');
        }
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.#highlight((this.#active + step + this.#results.length) % this.#results.length);
    } else if (event.key === 'Enter' && open && this.#active >= 0) {
      event.preventDefault();
      this.#pick(this.#active);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      this.#close();
    }
  }

  #highlight(index: number): void {
    this.#active = index;
    for (const option of this.#list.children) option.setAttribute('aria-selected', String(option.id === `city-option-${index}`));
    this.#input.setAttribute('aria-activedescendant', `city-option-${index}`);
    this.#list.children[index]?.scrollIntoView({ block: 'nearest' });
  }

  #pick(index: number): void {
    const result = this.#results[index];
    if (!result) return;
    this.#input.value = result.matchedName ?? result.name;
    this.#choose(result);
    this.#close();
  }

  #choose(result: CityResult | null): void {
    (this.querySelector('input[name="cityId"]') as HTMLInputElement).value = result?.id ?? '';
    (this.querySelector('input[name="country"]') as HTMLInputElement).value = result?.country ?? '';
  }

  #close(): void {
    this.#list.hidden = true;
    this.#input.setAttribute('aria-expanded', 'false');
    this.#input.removeAttribute('aria-activedescendant');
    this.#active = -1;
  }
}
