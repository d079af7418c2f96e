import { DEFAULT_LANGUAGE, languageFromParam, type LanguageCode } from '../i18n/languages.ts';
import { uiStrings } from '../i18n/ui.ts';
import type { ArticleItem } from '../server/articles/catalog.ts';
import { publishedView } from './published.ts';
import { ARCHIVE_PAGE_SIZE, pagesOf, pageWindow, type ListPage } from '../server/articles/lists.ts';
import { alternatesOf, archivePath, type Alternate } from '../server/http/site-paths.ts';
import { setting } from '../server/settings/environment.ts';
import { articleMeta } from './format.ts';
import { listPageTwin } from './markdown-twins.ts';

/** One archive page in one language, as the page and its twin show it. */
export interface ArchivePage {
  lang: LanguageCode;
  page: ListPage<ArticleItem>;
  path: string;
  title: string;
  /** The same page number in every language that has it, for hreflang and the language switcher. */
  alternates: Alternate[];
  /** The newer and older pages' paths, where they exist. */
  newer?: string;
  older?: string;
  /** The page numbers the pager shows, with their paths; null where numbers are skipped. */
  window: ({ number: number; path: string } | null)[];
}

export type { ArticleItem as ListedArticle };

/**
 * Page `pageParam` of the archive of the language `langParam` names, or null
 * when there is no such page: the articles published today, newest first,
 * `ARCHIVE_PAGE_SIZE` a page. Rendered on demand and kept a minute, as the
 * home page is, so a scheduled article joins the archive on its date, and the
 * archive, the home page, the feeds and the sitemap agree on any day
 * (docs/architecture.md, "Content and lists"). Page 1 is `/archive` only: `/archive/1`,
 * `/archive/02` and pages past the last are not pages.
 */
export async function archivePage(langParam: string | undefined, pageParam: string | undefined): Promise<ArchivePage | null> {
  const lang = languageFromParam(langParam);
  if (lang === null) return null;
  let number = 1;
  if (pageParam !== undefined) {
    if (!/^[1-9]\d{0,5}$/.test(pageParam) || pageParam === '1') return null;
    number = Number(pageParam);
  }
  const page = pagesOf((await publishedView()).list(lang), ARCHIVE_PAGE_SIZE)[number - 1];
  if (page === undefined) return null;
  return {
    lang,
    page,
    path: archivePath(lang, number),
    title: archiveTitle(lang, page),
    // Every language lists the same articles (English where untranslated), so every language has the same pages.
    alternates: alternatesOf((code) => archivePath(code, number)),
    ...(number > 1 ? { newer: archivePath(lang, number - 1) } : {}),
    ...(number < page.count ? { older: archivePath(lang, number + 1) } : {}),
    window: pageWindow(number, page.count).map((shown) => (shown === null ? null : { number: shown, path: archivePath(lang, shown) })),
  };
}

/** How many archive pages each language has today: the same for all. */
export async function archivePageCount(): Promise<number> {
  return pagesOf((await publishedView()).list(DEFAULT_LANGUAGE), ARCHIVE_PAGE_SIZE).length;
}

/** "Page 2 of 5", with the language's digits. */
export function pageOf(lang: LanguageCode, page: ListPage<unknown>): string {
  const digits = new Intl.NumberFormat(lang);
  return uiStrings(lang)('archive.page', { page: digits.format(page.number), pages: digits.format(page.count) });
}

/** "Archive", or "Archive · Page 2 of 5" when there are several pages. */
function archiveTitle(lang: LanguageCode, page: ListPage<unknown>): string {
  const title = uiStrings(lang)('archive.title');
  return page.count === 1 ? title : `${title} · ${pageOf(lang, page)}`;
}

/** The Markdown twin of an archive page: the same title, articles and ways to the newer and older pages. */
export function archiveMarkdown({ lang, page, title, newer, older }: ArchivePage): string {
  const t = uiStrings(lang);
  const site = setting('SITE_URL');
  const links = page.items.map((article) => ({
    title: article.title,
    url: article.url,
    meta: articleMeta(article.date, article.readingTime, lang),
    excerpt: article.excerpt,
  }));
  const steps = [
    ...(newer === undefined ? [] : [{ label: t('archive.newer'), url: `${site}${newer}` }]),
    ...(older === undefined ? [] : [{ label: t('archive.older'), url: `${site}${older}` }]),
  ];
  return listPageTwin(title, links, t('home.empty'), steps);
}
