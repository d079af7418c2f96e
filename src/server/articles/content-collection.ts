import { getCollection } from 'astro:content';
import { setting } from '../settings/environment.ts';
import { builtContent } from './built-content.ts';
import { articleBody } from './kept-beside-store.ts';
import { createCatalog, indexSources, type Catalog } from './catalog.ts';
import { factsMemo, parseArticlePath, type ArticleSource } from './source.ts';

let sources: Promise<ArticleSource[]> | undefined;

/**
 * Every article file of the content collection, drafts included, with its
 * body: read once, as the catalog is made once, so that the build's catalog
 * and its content files share one array (and `indexSources`' work on it).
 */
export function articleSources(): Promise<ArticleSource[]> {
  sources ??= readArticleSources();
  return sources;
}

async function readArticleSources(): Promise<ArticleSource[]> {
  const entries = await getCollection('articles');
  const sources = entries.map((entry) => ({
    ...parseArticlePath(entry.id),
    title: entry.data.title,
    date: entry.data.date,
    excerpt: entry.data.excerpt,
    draft: entry.data.draft ?? false,
    ...(entry.data.translatedFrom === undefined ? {} : { translatedFrom: entry.data.translatedFrom }),
    body: articleBody(entry),
    ...(entry.digest === undefined ? {} : { fileDigest: String(entry.digest) }),
  }));
  // Each file's facts worked out now, for the catalog and the content files alike, from the build's memo where it keeps one.
  indexSources(sources, factsMemo());
  return sources;
}

let catalog: Promise<Catalog> | undefined;

/**
 * The catalog of the writer's articles, made once: from the build's content
 * files when the site runs from a build (built-content.ts), from the content
 * collection while Astro builds or serves in development.
 */
export function articleCatalog(): Promise<Catalog> {
  catalog ??= (async () => builtContent()?.catalog ?? createCatalog(await articleSources(), setting('SITE_URL')))();
  return catalog;
}
