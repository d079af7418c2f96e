import type { LanguageCode } from '../../i18n/languages.ts';

const WORDS_PER_MINUTE = 200;
const CHARACTERS_PER_MINUTE = 500;
/** Scripts written without spaces between words: there, reading speed is counted in characters. */
const CHARACTER_COUNTED: ReadonlySet<LanguageCode> = new Set(['ja', 'zh', 'ko']);
const IMAGE = /!\[[^\]]*\]\([^)]*\)/g;
/** What a word is made of: runs of letters and digits. */
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;
/** What a character-counted script counts: neither space, punctuation nor Markdown's markup. */
const COUNTED_CHARACTER = /^[^\s\p{P}#>*_`|~-]$/u;

/**
 * A test of code points by a one-character pattern, each answer kept (0
 * unknown, 1 yes, 2 no): a body is read a character at a time, and a build
 * reads every article's.
 */
function codePointTest(pattern: RegExp): (codePoint: number) => boolean {
  const answers = new Uint8Array(0x110000);
  return (codePoint) => {
    let answer = answers[codePoint];
    if (answer === 0) {
      answer = pattern.test(String.fromCodePoint(codePoint)) ? 1 : 2;
      answers[codePoint] = answer;
    }
    return answer === 1;
  };
}

const isWordCharacter = codePointTest(WORD_CHARACTER);
const isCountedCharacter = codePointTest(COUNTED_CHARACTER);

/** The units of `text`: the code points that pass `counts`, or (`runs`) the runs of them. */
function countUnits(text: string, counts: (codePoint: number) => boolean, runs: boolean): number {
  let units = 0;
  let inRun = false;
  for (let index = 0; index < text.length; index += 1) {
    let codePoint = text.charCodeAt(index);
    if (codePoint >= 0xd800 && codePoint <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = (codePoint - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        index += 1;
      }
    }
    const counted = counts(codePoint);
    if (counted && !(runs && inRun)) units += 1;
    inRun = counted;
  }
  return units;
}

/**
 * Minutes to read a Markdown body: rounded up, at least 1. Code and markup
 * count like prose, but for images and the markup characters themselves:
 * words (runs of letters and digits) at 200 a minute, or characters at 500 a
 * minute in the scripts that write no spaces between words.
 */
export function readingTime(body: string, lang: LanguageCode): number {
  const text = body.includes('![') ? body.replace(IMAGE, ' ') : body;
  const characters = CHARACTER_COUNTED.has(lang);
  const units = countUnits(text, characters ? isCountedCharacter : isWordCharacter, !characters);
  return Math.max(1, Math.ceil(units / (characters ? CHARACTERS_PER_MINUTE : WORDS_PER_MINUTE)));
}
