/**
 * Every island of the site is built one way. It is a custom element: its
 * component (src/components/*.astro) renders the markup, hands it its words
 * in the page's language as JSON in `data-strings` (its other settings in
 * `data-` attributes of their own), and holds its styles (scoped; global
 * only for markup the island or the server makes, as the thread's). The
 * component's `<script>` only imports the element's class from
 * src/site/client/ and defines it:
 *
 *     import { WriteForm } from '../site/client/write-form';
 *     customElements.define('write-form', WriteForm);
 *
 * The class wires the page. What can be decided without one (which message a
 * refusal gets, which fields a form sends, what is kept) lives in plain
 * functions of modules that hold no element, which the unit tests import
 * (tests/unit/client-*.test.ts).
 */

/** The island's words, as its component wrote them in `data-strings`. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the island names the shape its component wrote
export function islandStrings<Strings>(island: HTMLElement): Strings {
  return JSON.parse(island.dataset['strings'] ?? '{}') as Strings;
}

/** One of an island's words with its `{name}` placeholders filled from `values`; a placeholder without a value stays as written. */
export function fillIn(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
