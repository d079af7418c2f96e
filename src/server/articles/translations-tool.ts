/**
 * The writer's translation tool (npm run translations -- <command>): a table
 * of every translation against its English original, and `mark`, which
 * stamps translations as following the English text as it is now.
 */
import type { Writable } from 'node:stream';
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGE_CODES, type LanguageCode } from '../../i18n/languages.ts';
import { articleFiles, articleFolders, currentStamp, stampOf, writeStamp, type ArticleFiles } from './translation-files.ts';
import { translationStatus, type TranslationStatus } from './translation-stamp.ts';
import { UsageError } from '../tools/usage-error.ts';

export interface TranslationsIo {
  stdout: Writable;
  stderr: Writable;
}

const USAGE = `The translation tool: which translations follow their English original.

Usage: npm run translations -- [command]

  (no command)               Prints every article and language: current, outdated or missing.
  mark SLUG LANG [LANG...]   Stamps these translations of SLUG as translated from its
                             English text as it is now.
  mark SLUG --all            Stamps every translation of SLUG.
  mark --all                 Stamps every translation of every article.
  --help                     Prints this.

Exit codes: 0 done, 1 failed (no such article or translation), 2 wrong usage.
`;

const TRANSLATED = LANGUAGE_CODES.filter((lang) => lang !== DEFAULT_LANGUAGE);
const MARKS: Record<TranslationStatus, string> = { current: '✓', outdated: '!', missing: '·' };

async function statusesOf(article: ArticleFiles): Promise<Map<LanguageCode, TranslationStatus>> {
  const english = await currentStamp(article);
  const statuses = new Map<LanguageCode, TranslationStatus>();
  for (const lang of TRANSLATED) {
    const path = article.files.get(lang);
    statuses.set(lang, translationStatus(path === undefined ? null : await stampOf(path), english));
  }
  return statuses;
}

/** The table: one row an article, one column a language, and the counts under it. */
async function printTable(root: string, io: TranslationsIo): Promise<void> {
  const articles = await articleFolders(root);
  const width = Math.max(4, ...articles.map((article) => article.slug.length));
  const counts: Record<TranslationStatus, number> = { current: 0, outdated: 0, missing: 0 };
  const lines = [
    `${MARKS.current} current   ${MARKS.outdated} outdated (the English text changed since it was marked, or it never was)   ${MARKS.missing} missing`,
    '',
    ['slug'.padEnd(width), ...TRANSLATED.map((lang) => lang.padEnd(3))].join(' '),
  ];
  for (const article of articles) {
    const statuses = await statusesOf(article).catch((error: unknown) => {
      io.stderr.write(`${error instanceof Error ? error.message : String(error)}: left out\n`);
      return null;
    });
    if (statuses === null) continue;
    for (const status of statuses.values()) counts[status] += 1;
    lines.push([article.slug.padEnd(width), ...TRANSLATED.map((lang) => MARKS[statuses.get(lang) ?? 'missing'].padEnd(3))].join(' '));
  }
  lines.push('', `${counts.current} current, ${counts.outdated} outdated, ${counts.missing} missing`);
  io.stdout.write(`${lines.map((line) => line.trimEnd()).join('\n')}\n`);
}

/** Stamps `languages` of one article (every translation it has when null). */
async function markArticle(article: ArticleFiles, languages: readonly LanguageCode[] | null, io: TranslationsIo): Promise<void> {
  const stamp = await currentStamp(article);
  const chosen = languages ?? TRANSLATED.filter((code) => article.files.has(code));
  const absent = chosen.filter((lang) => !article.files.has(lang));
  if (absent.length > 0) throw new Error(`content/articles/${article.slug} has no translation in ${absent.join(', ')}`);
  for (const lang of chosen) {
    const changed = await writeStamp(article.files.get(lang) as string, stamp);
    io.stdout.write(`${article.slug}/${lang}: ${changed ? 'marked current' : 'already current'}\n`);
  }
}

async function mark(root: string, args: readonly string[], io: TranslationsIo): Promise<void> {
  const [slug, ...languages] = args;
  if (slug === '--all' && languages.length === 0) {
    for (const article of await articleFolders(root)) await markArticle(article, null, io);
    return;
  }
  if (slug === undefined || slug.startsWith('-') || languages.length === 0) {
    throw new UsageError('expected mark SLUG LANG [LANG...], mark SLUG --all or mark --all');
  }
  const all = languages.length === 1 && languages[0] === '--all';
  for (const lang of all ? [] : languages) {
    if (!isLanguageCode(lang)) throw new UsageError(`"${lang}" is not one of the language codes ${LANGUAGE_CODES.join(' ')}`);
    if (lang === DEFAULT_LANGUAGE) throw new UsageError('English is the original: only translations are marked');
  }
  const article = await articleFiles(root, slug);
  if (article.files.size === 0) throw new Error(`no article content/articles/${slug}`);
  await markArticle(article, all ? null : (languages as LanguageCode[]), io);
}

/** Runs one command on the articles under `root`; resolves with the process's exit code. */
export async function runTranslationsTool(args: readonly string[], root: string, io: TranslationsIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === undefined) await printTable(root, io);
    else if (command === 'mark') await mark(root, rest, io);
    else if (command === '--help' || command === '-h' || command === 'help') io.stdout.write(USAGE);
    else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    if (!(error instanceof UsageError)) return 1;
    io.stderr.write(`\n${USAGE}`);
    return 2;
  }
}
