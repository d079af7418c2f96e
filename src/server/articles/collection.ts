import { getCollection } from 'astro:content';
import { siteUrl } from '../config.ts';
import { DEFAULT_LANGUAGE } from '../../i18n/languages.ts';
import { createCatalog, todayUtc, type Catalog } from './catalog.ts';
import { parseArticlePath } from './source.ts';

let catalog: Catalog | undefined;

/** The catalog of the writer's articles, read once from the content collection. */
export async function articleCatalog(): Promise<Catalog> {
  if (catalog) return catalog;
  const entries = await getCollection('articles');
  catalog = createCatalog(
    entries.map((entry) => ({
      ...parseArticlePath(entry.id),
      title: entry.data.title,
      date: entry.data.date,
      excerpt: entry.data.excerpt,
      draft: entry.data.draft ?? false,
      body: entry.body ?? '',
    })),
    siteUrl(),
  );
  return catalog;
}

/** Whether an article is published today (UTC): what the writes that target an article check. */
export async function publishedToday(): Promise<(slug: string) => boolean> {
  const view = (await articleCatalog()).on(todayUtc());
  return (slug) => view.get(slug, DEFAULT_LANGUAGE) !== null;
}
