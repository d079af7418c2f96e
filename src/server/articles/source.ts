import { isLanguageCode, type LanguageCode } from '../../i18n/languages.ts';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** One language file of an article, as the writer wrote it. */
export interface ArticleSource {
  slug: string;
  lang: LanguageCode;
  title: string;
  /** YYYY-MM-DD */
  date: string;
  excerpt: string;
  draft: boolean;
  /** A translation's stamp of the English body it follows (translation-stamp.ts). */
  translatedFrom?: string;
  /** The Markdown (or MDX) body, front matter removed. */
  body: string;
}

/**
 * The slug and language of a content file from its path below `content/articles`
 * (`<slug>/<lang>.md`). Throws, naming the file, when either is not valid:
 * a writer's typo fails the build instead of publishing under a wrong address.
 */
export function parseArticlePath(path: string): { slug: string; lang: LanguageCode } {
  const match = /^([^/]+)\/([^/.]+)(?:\.mdx?)?$/.exec(path);
  const slug = match?.[1];
  const lang = match?.[2];
  if (slug === undefined || lang === undefined) {
    throw new Error(`content/articles/${path}: expected <slug>/<lang>.md or .mdx`);
  }
  if (!SLUG_PATTERN.test(slug)) {
    throw new Error(`content/articles/${path}: the folder name "${slug}" is not a slug (lowercase letters, digits, single hyphens)`);
  }
  if (!isLanguageCode(lang)) {
    throw new Error(`content/articles/${path}: "${lang}" is not one of the site's language codes`);
  }
  return { slug, lang };
}
