/** Letters that Unicode does not decompose into a base letter and a mark, spelled as a reader without them types them. */
const SPELLED_OUT: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ı: 'i',
  ə: 'e',
};
const UNDECOMPOSED = /[ßæœłøđðıə]/g;
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
const LETTER = /\p{L}/u;
const PRINTABLE_ASCII = /^[ -~]*$/;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;

/**
 * The form in which names are compared: decomposed (NFD) with the marks
 * removed, lower case, ß æ œ ł ø đ ð ı ə spelled out, and every run of
 * punctuation, hyphens and spaces as one space. "Zürich" and "ZURICH" are
 * both "zurich"; "Saint-Étienne" is "saint etienne".
 */
export function normalizeName(text: string): string {
  // What most readers type has no marks or special letters to undo: the same result, faster.
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(ASCII_SEPARATORS, ' ').trim();
  return text
    .normalize('NFD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(UNDECOMPOSED, (letter) => SPELLED_OUT[letter] ?? letter)
    .replace(SEPARATORS, ' ')
    .trim();
}

/** Whether a text holds at least two letters: a shorter query finds nothing. */
export function hasTwoLetters(text: string): boolean {
  let letters = 0;
  for (const char of text) {
    if (LETTER.test(char) && ++letters === 2) return true;
  }
  return false;
}
