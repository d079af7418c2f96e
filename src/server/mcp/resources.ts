import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type McpServer } from '@modelcontextprotocol/server';
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGE_CODES } from '../../i18n/languages.ts';
import type { ArticleItem, PublishedView } from '../articles/catalog.ts';
import type { ApiServices } from '../api/definition.ts';

/**
 * Each published translation of an article is a resource: its Markdown, at
 * the URL of its Markdown twin (`<site>/articles/<slug>.md`,
 * `<site>/fr/articles/<slug>.md`), which a client may also fetch itself.
 * A language an article is not translated into has no resource: the tools
 * answer such a request in English, a resource never stands for another.
 */

/** Resources listed per page: a list answer stays small however many articles × 15 languages the archive holds. */
const RESOURCE_PAGE_SIZE = 100;

const MARKDOWN = 'text/markdown';

/** A twin's path: the English one has no language prefix, every other has its own. */
const TWIN_PATH = /^\/(?:([a-z]{2,3})\/)?articles\/([a-z0-9-]+)\.md$/;

function uriOf(article: ArticleItem): string {
  return `${article.url}.md`;
}

/** Every published translation, language by language in the site's order, newest first within each. */
function translations(view: PublishedView): ArticleItem[] {
  return LANGUAGE_CODES.flatMap((lang) => view.list(lang).filter((article) => article.lang === lang));
}

/** The translation a resource URI names, if it is published. */
function translationAt(uri: string, view: PublishedView, site: string): ArticleItem | null {
  if (!uri.startsWith(`${site}/`)) return null;
  const [, prefix, slug = ''] = TWIN_PATH.exec(uri.slice(site.length)) ?? [];
  const lang = prefix ?? DEFAULT_LANGUAGE;
  if (prefix === DEFAULT_LANGUAGE || !isLanguageCode(lang)) return null;
  const article = view.get(slug, lang);
  return article?.lang === lang ? article : null;
}

/** The offset a `resources/list` cursor names: the cursors this server gives are offsets. */
function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = /^[1-9]\d{0,8}$/.test(cursor) ? Number(cursor) : Number.NaN;
  if (Number.isNaN(offset)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown cursor "${cursor}"`);
  return offset;
}

/**
 * Answers `resources/list` (paged by RESOURCE_PAGE_SIZE, `nextCursor` while
 * more remain), `resources/templates/list` and `resources/read` (an unknown
 * or unpublished URI is the protocol's resource-not-found error).
 */
export function serveArticleResources(mcp: McpServer, services: ApiServices): void {
  const { server } = mcp;
  server.registerCapabilities({ resources: { listChanged: false, subscribe: false } });
  server.setRequestHandler('resources/list', async (request) => {
    const all = translations(await services.published());
    const offset = offsetOf(request.params?.cursor);
    const page = all.slice(offset, offset + RESOURCE_PAGE_SIZE);
    const next = offset + RESOURCE_PAGE_SIZE;
    return {
      resources: page.map((article) => ({
        uri: uriOf(article),
        name: `${article.slug} (${article.lang})`,
        title: article.title,
        description: article.excerpt,
        mimeType: MARKDOWN,
      })),
      ...(next < all.length ? { nextCursor: String(next) } : {}),
    };
  });
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [
      {
        uriTemplate: `${services.site}/articles/{slug}.md`,
        name: 'article',
        title: 'An article in English, the original',
        mimeType: MARKDOWN,
      },
      {
        uriTemplate: `${services.site}/{lang}/articles/{slug}.md`,
        name: 'translation',
        title: `An article translated into another language (${LANGUAGE_CODES.filter((code) => code !== DEFAULT_LANGUAGE).join(', ')})`,
        mimeType: MARKDOWN,
      },
    ],
  }));
  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    const view = await services.published();
    const found = translationAt(uri, view, services.site);
    const article = found && (await view.read(found.slug, found.lang));
    if (!article) throw new ResourceNotFoundError(uri);
    return { contents: [{ uri, mimeType: MARKDOWN, text: article.content }] };
  });
}
