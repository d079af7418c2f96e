/**
 * The language files of content/articles as the translation tool reads and
 * stamps them: straight from disk, with no build and no git, so that any copy
 * of the content answers alike. Old versions (`<slug>.v<N>/`) and anything
 * else that is not a slug folder are left alone.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from '../../i18n/languages.ts';
import { SLUG_PATTERN } from './source.ts';
import { englishStamp, STAMP_FIELD } from './translation-stamp.ts';

const FRONT_MATTER = /^(---\r?\n)([\s\S]*?\r?\n)?(---[ \t]*(?:\r?\n|$))/;
const STAMP_LINE = new RegExp(`^${STAMP_FIELD}:[ \\t]*["']?([^"'\\s#]*)["']?[ \\t]*(?:#.*)?$`, 'm');

/** One article's files: the path of each language written, English included. */
export interface ArticleFiles {
  slug: string;
  files: ReadonlyMap<LanguageCode, string>;
}

/** Every article folder under `root`, by slug. */
export async function articleFolders(root: string): Promise<ArticleFiles[]> {
  const folders = await readdir(root, { withFileTypes: true });
  const slugs = folders.filter((entry) => entry.isDirectory() && SLUG_PATTERN.test(entry.name)).map((entry) => entry.name);
  return Promise.all(slugs.sort().map((slug) => articleFiles(root, slug)));
}

/** The language files of the article `slug`; none when there is no such folder. */
export async function articleFiles(root: string, slug: string): Promise<ArticleFiles> {
  const names = await readdir(join(root, slug)).catch(() => []);
  const files = new Map<LanguageCode, string>();
  for (const name of names) {
    const lang = /^([a-z]+)\.mdx?$/.exec(name)?.[1];
    if (lang !== undefined && isLanguageCode(lang)) files.set(lang, join(root, slug, name));
  }
  return { slug, files };
}

interface ContentFile {
  opening: string;
  /** The front matter's lines, each with its line ending. */
  frontMatter: string;
  closing: string;
  body: string;
}

/** A content file cut into its front matter and body; throws naming the file when it has no front matter. */
async function readContentFile(path: string): Promise<ContentFile> {
  const text = await readFile(path, 'utf8');
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new Error(`${path}: no front matter between --- lines`);
  const [whole, opening = '', frontMatter = '', closing = ''] = match;
  return { opening, frontMatter, closing, body: text.slice(whole.length) };
}

/** The stamp of an article's English file as it is now; throws when it has none. */
export async function currentStamp(article: ArticleFiles): Promise<string> {
  const english = article.files.get(DEFAULT_LANGUAGE);
  if (english === undefined) throw new Error(`content/articles/${article.slug} has no en.md or en.mdx`);
  return englishStamp((await readContentFile(english)).body);
}

/** The stamp a translation file carries, if any. */
export async function stampOf(path: string): Promise<string | undefined> {
  return STAMP_LINE.exec((await readContentFile(path)).frontMatter)?.[1];
}

/**
 * Writes `stamp` into a translation's front matter, replacing the one it had;
 * the rest of the file stays byte for byte. Resolves with whether it changed.
 */
export async function writeStamp(path: string, stamp: string): Promise<boolean> {
  const { opening, frontMatter, closing, body } = await readContentFile(path);
  // Quoted: YAML would read a stamp of digits alone as a number.
  const line = `${STAMP_FIELD}: "${stamp}"`;
  const stamped = STAMP_LINE.test(frontMatter)
    ? frontMatter.replace(STAMP_LINE, line)
    : `${frontMatter}${line}${opening.endsWith('\r\n') ? '\r\n' : '\n'}`;
  if (stamped === frontMatter) return false;
  await writeFile(path, opening + stamped + closing + body);
  return true;
}
