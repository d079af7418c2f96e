import { LANGUAGE_CODES, languageParam, languagePrefix, type LanguageCode } from '../i18n/languages.ts';

/** The home page of a language: `/` for English, `/fr/` for French. */
export function homePath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/`;
}

export function projectsPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/projects`;
}

/** One page in each language, for hreflang links and the language switcher. */
export interface Alternate {
  lang: LanguageCode;
  path: string;
}

export function alternatesOf(pathFor: (lang: LanguageCode) => string, languages: readonly LanguageCode[] = LANGUAGE_CODES): Alternate[] {
  return languages.map((lang) => ({ lang, path: pathFor(lang) }));
}

export function citiesPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/cities`;
}

/** `getStaticPaths` of a `[...lang]` page built once per language, with that language as its prop. */
export function languageStaticPaths() {
  return LANGUAGE_CODES.map((lang) => ({ params: { lang: languageParam(lang) }, props: { lang } }));
}
