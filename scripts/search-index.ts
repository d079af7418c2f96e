import { join } from 'node:path';
import * as pagefind from 'pagefind';

/**
 * The site search's index, written into the built site by Pagefind: one
 * index per language (it reads each page's `<html lang>`), of the article
 * bodies only (`data-pagefind-body`). Searching then needs no server: the
 * browser fetches the index files of its page's language.
 */
export async function writeSearchIndex(clientDir: string): Promise<void> {
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw new Error(`The search index could not be started: ${errors.join('; ')}`);
  try {
    const added = await index.addDirectory({ path: clientDir });
    if (added.errors.length > 0) throw new Error(`The search index could not read the site: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: join(clientDir, 'pagefind') });
    if (written.errors.length > 0) throw new Error(`The search index could not be written: ${written.errors.join('; ')}`);
  } finally {
    await pagefind.close();
  }
}
