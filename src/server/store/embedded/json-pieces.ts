/**
 * A snapshot document's JSON written a little at a time: a thread of tens of
 * thousands of comments serialized in one call would hold the event loop, and
 * every reader's request behind it, for as long as that takes.
 */

/** Items of one of the document's arrays serialized together, each piece a small, bounded amount of work. */
const ITEMS_PER_PIECE = 200;

type Document = Readonly<Record<string, unknown>>;

/**
 * A copy of `document` that later changes to it do not reach, as long as the
 * items of its arrays are replaced rather than changed in place (as the
 * store's records are): its arrays are copied, not their items, so that
 * copying a long thread costs little more than a pointer each.
 */
export function copiedForWriting<T extends Document>(document: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) copy[key] = Array.isArray(value) ? value.slice() : value;
  return copy as T;
}

/**
 * The JSON text of `document` in pieces: joined, they are exactly
 * `JSON.stringify(document)`. Each top-level array is serialized
 * ITEMS_PER_PIECE items at a time, as the pieces are asked for.
 */
export function* jsonPieces(document: Document): Generator<string> {
  let before = '{';
  for (const [key, value] of Object.entries(document)) {
    if (value === undefined || typeof value === 'function') continue;
    const member = `${before}${JSON.stringify(key)}:`;
    before = ',';
    if (!Array.isArray(value) || value.length === 0) {
      yield member + JSON.stringify(value);
      continue;
    }
    for (let start = 0; start < value.length; start += ITEMS_PER_PIECE) {
      const items = JSON.stringify(value.slice(start, start + ITEMS_PER_PIECE));
      yield (start === 0 ? `${member}[` : ',') + items.slice(1, -1);
    }
    yield ']';
  }
  yield before === '{' ? '{}' : '}';
}
