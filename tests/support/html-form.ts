/**
 * What a browser without JavaScript sends when a reader submits one of the
 * site's forms, read from the page's HTML as the site builds it (attributes
 * in double quotes): enough for its plain forms, not a parser of any page.
 */

/** A tag's attributes by name; one without a value is an empty string. */
function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, value] of tag.matchAll(/\s([a-zA-Z][\w:-]*)(?:="([^"]*)")?/g))
    if (name !== undefined) attributes.set(name.toLowerCase(), decodeEntities(value ?? ''));
  return attributes;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_whole, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_whole, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The form a page posts to `action`, as a browser submits it without JavaScript. */
export interface SubmittedForm {
  method: string;
  action: string;
  /** The fields it sends, in its order, form-encoded as the browser encodes them. */
  body: URLSearchParams;
}

/**
 * The one form of `html` whose `action` is `action`, submitted with `typed`
 * in the fields a reader fills (by name): every named `<input>` inside it
 * that is its own (no `form` attribute) and not disabled, with its `value`
 * where the reader types none. A form holding a `<select>`, a `<textarea>`,
 * a named button or a checkbox is refused: this reading does not know how
 * a browser sends those.
 */
export function submittedForm(html: string, action: string, typed: Readonly<Record<string, string>>): SubmittedForm {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].filter(
    ([, tag]) => attributesOf(tag ?? '').get('action') === action,
  );
  if (forms.length !== 1) throw new Error(`${forms.length} forms post to ${action}, not one`);
  const [, formTag = '', inside = ''] = forms[0] ?? [];
  if (/<(select|textarea)\b|<button\b[^>]*\sname=|type="(checkbox|radio|file)"/.test(inside))
    throw new Error(`the form to ${action} has fields this reading does not send`);
  const body = new URLSearchParams();
  for (const [tag] of inside.matchAll(/<input\b[^>]*>/g)) {
    const attributes = attributesOf(tag);
    const name = attributes.get('name');
    if (name === undefined || name === '' || attributes.has('form') || attributes.has('disabled')) continue;
    body.append(name, typed[name] ?? attributes.get('value') ?? '');
  }
  return { method: (attributesOf(formTag).get('method') ?? 'get').toUpperCase(), action, body };
}
