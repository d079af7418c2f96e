/**
 * The publication's languages: the one list every page, route and API answer
 * uses. `locale` is the language with a territory, as Open Graph's
 * `og:locale` writes it.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr', locale: 'en_US' },
  { code: 'fr', name: 'Français', dir: 'ltr', locale: 'fr_FR' },
  { code: 'es', name: 'Español', dir: 'ltr', locale: 'es_ES' },
  { code: 'pt', name: 'Português', dir: 'ltr', locale: 'pt_PT' },
  { code: 'it', name: 'Italiano', dir: 'ltr', locale: 'it_IT' },
  { code: 'de', name: 'Deutsch', dir: 'ltr', locale: 'de_DE' },
  { code: 'ru', name: 'Русский', dir: 'ltr', locale: 'ru_RU' },
  { code: 'ja', name: '日本語', dir: 'ltr', locale: 'ja_JP' },
  { code: 'ko', name: '한국어', dir: 'ltr', locale: 'ko_KR' },
  { code: 'zh', name: '中文', dir: 'ltr', locale: 'zh_CN' },
  { code: 'ar', name: 'العربية', dir: 'rtl', locale: 'ar_AR' },
  { code: 'he', name: 'עברית', dir: 'rtl', locale: 'he_IL' },
  { code: 'hi', name: 'हिन्दी', dir: 'ltr', locale: 'hi_IN' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr', locale: 'tr_TR' },
  { code: 'kab', name: 'Taqbaylit', dir: 'ltr', locale: 'kab_DZ' },
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
