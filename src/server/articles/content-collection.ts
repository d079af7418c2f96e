import { getCollection } from 'astro:content';
import { siteUrl } from '../settings/environment.ts';
import { createCatalog, type Catalog } from './catalog.ts';
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
      ...(entry.data.translatedFrom === undefined ? {} : { translatedFrom: entry.data.translatedFrom }),
      body: entry.body ?? '',
    })),
    siteUrl(),
  );
  return catalog;
}
