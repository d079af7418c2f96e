import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, languageParam, type LanguageCode } from '../i18n/languages.ts';
import { builtContent, contentFiles, type PageText } from '../server/articles/built-content.ts';
import { articleCatalog, articleSources } from '../server/articles/content-collection.ts';
import { parseArticlePath } from '../server/articles/source.ts';
import { todayUtc } from '../server/articles/catalog.ts';

export type PageName = 'home' | 'projects';

/** A content page in `lang`, or in English where it is not translated: for prerendered pages, which render its entry. */
async function pageEntry(name: PageName, lang: LanguageCode): Promise<CollectionEntry<'pages'>> {
  const entry = (await getEntry('pages', `${name}/${lang}`)) ?? (await getEntry('pages', `${name}/${DEFAULT_LANGUAGE}`));
  if (!entry) throw new Error(`content/pages/${name}/en.md is missing`);
  return entry;
}

function pageTextOf(entry: CollectionEntry<'pages'>): PageText {
  return { ...entry.data, body: entry.body ?? '', html: entry.rendered?.html ?? '' };
}

/**
 * A content page's text in `lang`, or in English where it is not translated,
 * for the pages rendered on demand: from the build's content files when the
 * site runs from a build, so that a request never loads Astro's content store.
 */
export async function pageText(name: PageName, lang: LanguageCode): Promise<PageText> {
  const built = builtContent();
  if (!built) return pageTextOf(await pageEntry(name, lang));
  const text = built.page(name, lang) ?? built.page(name, DEFAULT_LANGUAGE);
  if (!text) throw new Error(`content/pages/${name}/en.md was not in the build`);
  return text;
}

/** The site's name, declared once: the title of the English home page (content/pages/home/en.md). */
export async function siteName(): Promise<string> {
  return (await pageText('home', DEFAULT_LANGUAGE)).title;
}

let files: Promise<ReturnType<typeof contentFiles>> | undefined;

/** The build's content files (src/server/articles/built-content.ts), made once for both routes that write them. */
export function builtContentFiles(): Promise<ReturnType<typeof contentFiles>> {
  files ??= (async () => {
    const pages = Object.fromEntries((await getCollection('pages')).map((entry) => [entry.id, pageTextOf(entry)]));
    return contentFiles(await articleSources(), pages);
  })();
  return files;
}

/**
 * Every article file that is not a draft, as `[...lang]/articles/[slug]` paths.
 * Future-dated ones are built too: the front server holds them back until their date.
 *
 * Each path's `cacheKey` names everything of the content its page and twin
 * show: the translation's own digest, the languages the article has, whether
 * the translation is outdated, whether the search takes it in yet (its date
 * reached), and the site's name. A path whose key and code are unchanged is
 * copied from the last build rather than rendered (Astro's incremental build).
 */
export async function articleStaticPaths() {
  const catalog = await articleCatalog(); // fails the build when an article lacks its English original
  const entries = await getCollection('articles', (entry) => entry.data.draft !== true);
  const name = await siteName();
  const today = todayUtc();
  return entries.map((entry) => {
    const { slug, lang } = parseArticlePath(entry.id);
    const cacheKey = JSON.stringify([
      entry.digest ?? null,
      catalog.languagesOf(slug),
      catalog.isOutdated(slug, lang),
      entry.data.date <= today,
      name,
    ]);
    return { params: { lang: languageParam(lang), slug }, props: { entry, slug, lang }, cacheKey };
  });
}

/** The projects page in every language (English text where untranslated). */
export async function projectsStaticPaths() {
  return Promise.all(
    LANGUAGE_CODES.map(async (lang) => ({
      params: { lang: languageParam(lang) },
      props: { lang, entry: await pageEntry('projects', lang) },
    })),
  );
}

/** `getStaticPaths` of a `[...lang]` page built once per language, with that language as its prop. */
export function languageStaticPaths() {
  return LANGUAGE_CODES.map((lang) => ({ params: { lang: languageParam(lang) }, props: { lang } }));
}
