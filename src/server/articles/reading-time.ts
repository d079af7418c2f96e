import type { LanguageCode } from '../../i18n/languages.ts';

const WORDS_PER_MINUTE = 200;
const CHARACTERS_PER_MINUTE = 500;
/** Scripts written without spaces between words: there, reading speed is counted in characters. */
const CHARACTER_COUNTED: ReadonlySet<LanguageCode> = new Set(['ja', 'zh', 'ko']);

/** Minutes to read a Markdown body: rounded up, at least 1. Code and markup count like prose. */
export function readingTime(body: string, lang: LanguageCode): number {
  const text = body.replace(/!\[[^\]]*\]\([^)]*\)/g, ' ').replace(/[#>*_`|~-]+/g, ' ');
  const units = CHARACTER_COUNTED.has(lang) ? (text.match(/[^\s\p{P}]/gu) ?? []).length : (text.match(/[\p{L}\p{N}]+/gu) ?? []).length;
  const perMinute = CHARACTER_COUNTED.has(lang) ? CHARACTERS_PER_MINUTE : WORDS_PER_MINUTE;
  return Math.max(1, Math.ceil(units / perMinute));
}
