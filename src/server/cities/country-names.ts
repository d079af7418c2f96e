import type { LanguageCode } from '../../i18n/languages.ts';

/**
 * Kabyle's names of countries are still partial in the CLDR data Node ships:
 * where one is missing, the French one is shown, the second language of most
 * Kabyle readers; then the English one of the index.
 */
const FALLBACK: Partial<Record<LanguageCode, LanguageCode>> = { kab: 'fr' };

const byLanguage = new Map<LanguageCode, Map<string, string>>();

function displayed(code: string, lang: LanguageCode): string | undefined {
  return new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' }).of(code);
}

/**
 * A country's name in `lang` (Intl.DisplayNames, from Node's CLDR data),
 * else in its fallback language, else `english` (the index's name). Kept
 * once computed: the city search asks for it on every result.
 */
export function countryNameIn(code: string, lang: LanguageCode, english: string): string {
  if (lang === 'en') return english;
  let names = byLanguage.get(lang);
  if (!names) {
    names = new Map<string, string>();
    byLanguage.set(lang, names);
  }
  let name = names.get(code);
  if (name === undefined) {
    const fallback = FALLBACK[lang];
    name = displayed(code, lang) ?? (fallback ? displayed(code, fallback) : undefined) ?? english;
    names.set(code, name);
  }
  return name;
}
