import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGE_CODES, languagePrefix, type LanguageCode } from '../../i18n/languages.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import type { StaticFile } from './static-files.ts';
import type { StoredAnswer } from './stored-answer.ts';

/** Where the build puts each language's "page not found" page (src/pages/[...lang]/not-found.astro). */
function notFoundPath(lang: LanguageCode): string {
  return `${languagePrefix(lang)}/not-found`;
}

/** The language a path belongs to: its first segment when that is a language code, English otherwise. */
export function languageOfPath(pathname: string): LanguageCode {
  const first = pathname.split('/')[1] ?? '';
  return isLanguageCode(first) ? first : DEFAULT_LANGUAGE;
}

/**
 * Takes the built "page not found" pages out of the public files and returns
 * them as 404 answers by language: a reader lost under `/fr/` is told so in
 * French, and the pages themselves have no address of their own.
 */
export function takeNotFoundPages(files: Map<string, StaticFile>): Map<LanguageCode, StoredAnswer> {
  const pages = new Map<LanguageCode, StoredAnswer>();
  for (const lang of LANGUAGE_CODES) {
    const path = notFoundPath(lang);
    const page = files.get(path);
    files.delete(path);
    files.delete(`${path}/`);
    if (page) pages.set(lang, { ...page.answer, status: 404, headers: { ...page.answer.headers, 'Cache-Control': CACHE_CONTROL.error } });
  }
  return pages;
}
