import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, languageParam, type LanguageCode } from '../i18n/languages.ts';
import { builtContent, contentFiles, type PageText } from '../server/articles/built-content.ts';
import { articleCatalog, articleSources } from '../server/articles/content-collection.ts';
import { byArticleId, parseArticlePath } from '../server/articles/source.ts';

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
 * Every article file that is not a draft, as `[...lang]/articles/[slug]` paths,
 * in the order of their ids (`<slug>/<lang>`): the order the build renders them
 * in, and hands them to the search index in (src/build/search-index.ts), known
 * from the files alone (not from the content store's, which follows the syncs).
 * Future-dated ones are built too: the front server holds them back until their date.
 */
export async function articleStaticPaths() {
  await articleCatalog(); // fails the build when an article lacks its English original
  const entries = (await getCollection('articles', (entry) => entry.data.draft !== true)).sort((a, b) => byArticleId(a.id, b.id));
  return entries.map((entry) => {
    const { slug, lang } = parseArticlePath(entry.id);
    return { params: { lang: languageParam(lang), slug }, props: { entry, slug, lang } };
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
