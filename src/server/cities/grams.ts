/**
 * Bucket numbers of normalized names: whole names (hashed), trigrams and
 * bigrams. The grams' alphabet is a–z, 0–9, space, a mark for the start of
 * the name, and one symbol for every other letter. A bucket may then hold
 * more cities than share the name or gram, never fewer, so a candidate list
 * is always checked against the name.
 */
const OTHER = 0;
const SPACE = 37;
/** Stands before the first letter: the trigram `^pa` is a name starting with "pa". */
const START = 38;
const SYMBOLS = 39;

/** Buckets of whole names: more than there are cities, so that most hold one name. */
export const NAME_BUCKETS = 2 ** 15;
export const TRIGRAM_BUCKETS = SYMBOLS ** 3;
/** Trigrams whose place in a word is kept: from the one with the mark before the word to the one starting at its fourth letter. */
export const LEADING_TRIGRAMS = 5;
/** Trigrams with their place, hashed: few names hold most of the places × trigrams, and a smaller table stays in the cache. */
export const LEADING_TRIGRAM_BUCKETS = 2 ** 16;
export const BIGRAM_BUCKETS = SYMBOLS ** 2;

/** The symbol of the character at `position` of a normalized name; START before it. */
export function symbolAt(key: string, position: number): number {
  if (position < 0) return START;
  const code = key.charCodeAt(position);
  if (code >= 97 && code <= 122) return code - 96;
  if (code >= 48 && code <= 57) return code - 21;
  return code === 32 ? SPACE : OTHER;
}

/** The bucket of a whole normalized name: its FNV-1a hash. */
export function nameBucket(key: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < key.length; position++) hash = Math.imul(hash ^ key.charCodeAt(position), 0x01000193);
  return (hash >>> 0) % NAME_BUCKETS;
}

function trigram(first: number, second: number, third: number): number {
  return (first * SYMBOLS + second) * SYMBOLS + third;
}

export function bigram(first: number, second: number): number {
  return first * SYMBOLS + second;
}

/** The trigram whose first symbol stands at `position` (-1: the start mark). */
export function trigramAt(key: string, position: number): number {
  return trigram(symbolAt(key, position), symbolAt(key, position + 1), symbolAt(key, position + 2));
}

/** Every trigram of the name with its start mark: "paris" gives ^pa, par, ari, ris. */
export function eachTrigram(key: string, add: (bucket: number) => void): void {
  for (let position = -1; position + 2 < key.length; position++) add(trigramAt(key, position));
}

/**
 * The bucket of the trigram at `place` in the word starting at `wordStart`;
 * at place -1 it is the start mark and the word's first two letters.
 */
export function leadingTrigramAt(key: string, wordStart: number, place: number): number {
  const at = wordStart + place;
  const first = place < 0 ? START : symbolAt(key, at);
  return Math.imul((place + 1) * TRIGRAM_BUCKETS + trigram(first, symbolAt(key, at + 1), symbolAt(key, at + 2)), 0x9e3779b1) >>> 16;
}

function eachLeadingTrigramOfWord(key: string, wordStart: number, add: (bucket: number) => void): void {
  for (let place = -1; place < LEADING_TRIGRAMS - 1 && wordStart + place + 2 < key.length; place++)
    add(leadingTrigramAt(key, wordStart, place));
}

/** The leading trigrams of the name's first word, with their place: a name starting with "paris" has "ris" at place 2. */
export function eachLeadingTrigram(key: string, add: (bucket: number) => void): void {
  eachLeadingTrigramOfWord(key, 0, add);
}

/** The leading trigrams of every later word of the name, with their place in the word. */
export function eachLaterWordTrigram(key: string, add: (bucket: number) => void): void {
  for (let space = key.indexOf(' '); space !== -1; space = key.indexOf(' ', space + 1)) eachLeadingTrigramOfWord(key, space + 1, add);
}

/** Every bigram of the name: "paris" gives pa, ar, ri, is. */
export function eachBigram(key: string, add: (bucket: number) => void): void {
  for (let position = 0; position + 1 < key.length; position++) add(bigram(symbolAt(key, position), symbolAt(key, position + 1)));
}

/**
 * 32 bits standing for the bigrams a name holds: a name can contain the
 * query only if it has every bit of the query's signature. Checking these
 * bits first spares reading most names that cannot match.
 */
export function bigramSignature(key: string): number {
  let signature = 0;
  for (let position = 0; position + 1 < key.length; position++) {
    signature |= 1 << (Math.imul(bigram(symbolAt(key, position), symbolAt(key, position + 1)), 0x9e3779b1) >>> 27);
  }
  return signature;
}
