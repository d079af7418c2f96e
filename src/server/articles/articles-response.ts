import { z } from 'zod';
import type { LanguageCode } from '../../i18n/languages.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { languageParameter } from '../http/language-parameter.ts';
import type { ApiResponse } from '../api-frame/api-response.ts';
import type { ApiRequest } from '../api-frame/api-request.ts';
import { cacheableJson, refusalResponse } from '../api-frame/json-responses.ts';
import { refusal } from '../api-frame/refusals.ts';
import type { PublishedView } from './catalog.ts';
import { SLUG_PATTERN } from './source.ts';

/** The query of GET /api/articles. An unknown `lang` falls back to English rather than failing. */
export const articlesQuery = z.object({
  slug: z.string().regex(SLUG_PATTERN).optional(),
  lang: languageParameter,
});

/** The list envelope of GET /api/articles: every published article in `lang`, newest first. */
export function articleListBody(view: PublishedView, lang: LanguageCode, site: string) {
  const articles = [...view.list(lang)];
  return { site, lang, count: articles.length, articles };
}

/** The message of every response about a slug that no published article has. */
export function unknownSlug(slug: string): string {
  return `No published article has the slug "${slug}"`;
}

/**
 * GET /api/articles: the list envelope, or one article with its Markdown.
 * A malformed slug is answered like an unknown one: there is no such article.
 */
export async function serveArticles(request: ApiRequest, view: PublishedView, site: string): Promise<ApiResponse> {
  const params = request.url.searchParams;
  const query = articlesQuery.safeParse({
    slug: params.get('slug') ?? undefined,
    lang: params.get('lang') ?? undefined,
  });
  if (!query.success) return refusalResponse(refusal('not_found', 'No published article has that slug'));
  const { slug, lang } = query.data;
  if (slug === undefined) return cacheableJson(request, articleListBody(view, lang, site), CACHE_CONTROL.articles);
  const article = await view.read(slug, lang);
  if (!article) return refusalResponse(refusal('not_found', unknownSlug(slug)));
  return cacheableJson(request, { site, lang, article }, CACHE_CONTROL.articles);
}
