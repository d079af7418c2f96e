/**
 * Letters that Unicode does not decompose into a base letter and a mark,
 * spelled as a reader without them types them; and Arabic forms that readers
 * write either way (alif maqsura and ya, ta marbuta and ha) and the tatweel,
 * which only stretches a word.
 */
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
  ى: 'ي',
  ة: 'ه',
  ـ: '',
};
const UNDECOMPOSED = /[ßæœłøđðıəىةـ]/g;
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
const LETTER = /\p{L}/u;
const PRINTABLE_ASCII = /^[ -~]*$/;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;

/**
 * The form in which names and searched words are compared, in every script
 * (the city search, the article search): decomposed with
 * compatibility folding (NFKD: full-width Latin and half-width kana become
 * the usual forms) and every mark removed (accents, Arabic and Hebrew vowel
 * signs, Indic vowel signs, kana voicing marks), lower case, ß æ œ ł ø đ ð ı
 * ə spelled out, Arabic ى ة folded, and every run of punctuation, hyphens and
 * spaces as one space. "Zürich" and "ZURICH" are both "zurich";
 * "Saint-Étienne" is "saint etienne"; "İstanbul" is "istanbul". Japanese and
 * Chinese names have no spaces to split: they match as substrings.
 */
export function normalizeName(text: string): string {
  // What most readers type has no marks or special letters to undo: the same result, faster.
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(ASCII_SEPARATORS, ' ').trim();
  return text
    .normalize('NFKD')
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
