import type { LanguageCode } from './languages.ts';
import en from './translations/en.json';

export type UiKey = keyof typeof en;
type Strings = Record<UiKey, string>;

const files = import.meta.glob<Partial<Strings>>('./translations/*.json', { eager: true, import: 'default' });
const byLanguage = new Map<string, Partial<Strings>>(
  Object.entries(files).map(([path, strings]) => [path.replace(/^.*\/(.+)\.json$/, '$1'), strings]),
);

/**
 * The interface strings of one language; a missing key falls back to English,
 * marked in development so that the gap is seen.
 */
export function uiStrings(lang: LanguageCode): (key: UiKey, values?: Record<string, string | number>) => string {
  const strings = byLanguage.get(lang) ?? {};
  return (key, values = {}) => {
    const text = strings[key] ?? (import.meta.env.DEV ? `[en] ${en[key]}` : en[key]);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
  };
}
