import { languageFromParam, type LanguageCode } from '../i18n/languages.ts';
import type { ArticleItem } from '../server/articles/catalog.ts';
import { publishedView } from './published.ts';
import { CACHE_CONTROL } from '../server/http/cache-rules.ts';
import { THREAD_PAGE_PARAMETER } from '../server/http/site-paths.ts';
import { runtime } from '../server/runtime/runtime.ts';
import { threadPage, type ThreadPage } from '../server/threads/thread-page.ts';

/** The page of a published article's thread a request asks for, in its language. */
export interface AskedThread {
  lang: LanguageCode;
  slug: string;
  /** The article in that language (English where untranslated). */
  article: ArticleItem;
  page: number;
  view: ThreadPage;
}

/**
 * The thread page a request for `/threads/<slug>` (HTML or Markdown) asks
 * for; null, to be answered 404, for an unknown language, an article not
 * published today, or a page that is not one: past the last, or written in
 * any form but its own (`2`, never `02` or `2.0`), so that each page is
 * rendered and kept once.
 */
export async function askedThread(params: { lang?: string | undefined; slug?: string | undefined }, url: URL): Promise<AskedThread | null> {
  const lang = languageFromParam(params.lang);
  const slug = params.slug ?? '';
  const asked = url.searchParams.get(THREAD_PAGE_PARAMETER);
  const page = asked === null ? 1 : Number(asked);
  const article = lang === null ? null : (await publishedView()).get(slug, lang);
  if (lang === null || !article || !Number.isInteger(page) || page < 1 || page > 100_000 || (asked !== null && asked !== String(page)))
    return null;
  const view = await threadPage((await runtime()).store, slug, page);
  return page > 1 && view.comments.length === 0 ? null : { lang, slug, article, page, view };
}

/** The 404 of a thread page that is not there. */
export function threadNotFound(): Response {
  return new Response('Not found\n', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': CACHE_CONTROL.error },
  });
}
