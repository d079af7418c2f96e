import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGE_CODES, languagePrefix, type LanguageCode } from '../../i18n/languages.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import type { StaticFiles } from './static-files.ts';
import type { StoredResponse } from './stored-response.ts';

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
 * them as 404 answers by language, held in memory: a reader lost under
 * `/fr/` is told so in French, and the pages themselves have no address of
 * their own.
 */
export async function takeNotFoundPages(files: StaticFiles): Promise<Map<LanguageCode, StoredResponse>> {
  const pages = new Map<LanguageCode, StoredResponse>();
  for (const lang of LANGUAGE_CODES) {
    const path = notFoundPath(lang);
    const page = await files.take(path);
    await files.take(`${path}/`);
    if (page)
      pages.set(lang, {
        status: 404,
        headers: { 'Content-Type': page.file.contentType, 'Cache-Control': CACHE_CONTROL.error },
        etag: page.file.etag,
        bodies: page.bodies,
      });
  }
  return pages;
}
