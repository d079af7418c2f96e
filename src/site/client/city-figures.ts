import { fillIn } from './island.ts';
import type { Refusal } from './write-api.ts';

/** What the city form says, in the page's language: `thanks` holds `{city}`, `invalid` holds `{details}`. */
export interface CityFormStrings {
  sending: string;
  thanks: string;
  chooseCity: string;
  rentBelowPay: string;
  invalid: string;
  refusals: Record<string, string>;
}

/** One amount of the form as typed: its field's name, its label, its text. */
export interface TypedAmount {
  name: string;
  label: string;
  value: string;
}

/**
 * The form's figures checked before they are sent, as the API would check
 * them: a city picked from the list (its id), every amount above zero, and
 * rent below net pay. Either the amounts as numbers, by field name, or what
 * the form says instead, with the field to focus.
 */
export function checkFigures(
  cityId: string,
  amounts: readonly TypedAmount[],
  strings: CityFormStrings,
): { refusal: Refusal } | { refusal: null; amounts: Record<string, number> } {
  if (cityId === '') return { refusal: { message: strings.chooseCity, field: 'city' } };
  const missing = amounts.filter(({ value }) => !(Number(value) > 0));
  const [first] = missing;
  if (first !== undefined) {
    const details = missing.map(({ label }) => label).join(', ');
    return { refusal: { message: fillIn(strings.invalid, { details }), field: first.name } };
  }
  const numbers = Object.fromEntries(amounts.map(({ name, value }) => [name, Number(value)]));
  if ((numbers['rent'] ?? 0) >= (numbers['netPay'] ?? 0)) return { refusal: { message: strings.rentBelowPay, field: null } };
  return { refusal: null, amounts: numbers };
}
