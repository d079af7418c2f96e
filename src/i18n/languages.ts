/** The publication's languages: the one list every page, route and API answer uses. */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'pt', name: 'Português', dir: 'ltr' },
  { code: 'it', name: 'Italiano', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'ko', name: '한국어', dir: 'ltr' },
  { code: 'zh', name: '中文', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  { code: 'he', name: 'עברית', dir: 'rtl' },
  { code: 'hi', name: 'हिन्दी', dir: 'ltr' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr' },
  { code: 'kab', name: 'Taqbaylit', dir: 'ltr' },
] as const;

export type Language = (typeof LANGUAGES)[number];
export type LanguageCode = Language['code'];

/** English is the original: articles are written in it first and fall back to it. */
export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export const LANGUAGE_CODES: readonly LanguageCode[] = LANGUAGES.map((language) => language.code);

const byCode = new Map<string, Language>(LANGUAGES.map((language) => [language.code, language]));

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && byCode.has(value);
}

export function languageOf(code: LanguageCode): Language {
  return byCode.get(code) as Language;
}

/** The path prefix of a language's pages: none for English, `/<code>` otherwise. */
export function languagePrefix(code: LanguageCode): string {
  return code === DEFAULT_LANGUAGE ? '' : `/${code}`;
}

/** The `lang` route parameter of `[...lang]` pages: undefined for English. */
export function languageParam(code: LanguageCode): string | undefined {
  return code === DEFAULT_LANGUAGE ? undefined : code;
}

/** Reads a `[...lang]` route parameter back; null when it names no other language. */
export function languageFromParam(param: string | undefined): LanguageCode | null {
  if (param === undefined) return DEFAULT_LANGUAGE;
  return isLanguageCode(param) && param !== DEFAULT_LANGUAGE ? param : null;
}
