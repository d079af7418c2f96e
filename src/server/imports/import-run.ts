/**
 * The data tool's `import --from SOURCE FILE [--map MAP] [--dry-run]`: reads
 * another system's export, plans it (foreign.ts), reports what it matched and
 * skipped, and, unless a dry run, adds it to the store.
 */
import { readFile } from 'node:fs/promises';
import { newSalt } from '../identity/reader-hash.ts';
import type { StoreLifecycle, TransferStore } from '../store/roles.ts';
import { readArtalk } from './artalk.ts';
import { readDisqus } from './disqus.ts';
import { readIsso } from './isso.ts';
import { readRemark42 } from './remark42.ts';
import { readWordPress } from './wordpress.ts';
import { planImport, type ForeignComment, type ImportMap, type ImportPlan, type ImportSource } from './foreign.ts';

export interface ForeignImport {
  source: ImportSource;
  file: string;
  mapFile: string | undefined;
  dryRun: boolean;
  /** The slugs of the site's articles. */
  slugs: ReadonlySet<string>;
}

const READERS: Record<ImportSource, (file: string) => Promise<ForeignComment[]>> = {
  artalk: async (file) => readArtalk(await readFile(file, 'utf8')),
  disqus: async (file) => readDisqus(await readFile(file, 'utf8')),
  isso: (file) => Promise.resolve(readIsso(file)),
  remark42: async (file) => readRemark42(await readFile(file, 'utf8')),
  wordpress: async (file) => readWordPress(await readFile(file, 'utf8')),
};

/** A map file: one `OLD-URL-OR-PATH SLUG` a line; blank lines and lines starting with # are ignored. */
function parseImportMap(text: string): ImportMap {
  const map = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [from, slug, ...extra] = trimmed.split(/\s+/);
    if (from === undefined || slug === undefined || extra.length > 0) throw new Error(`map line ${index + 1}: expected OLD-URL SLUG`);
    map.set(from, slug);
  }
  return map;
}

function listed(counts: Map<string, number>): string {
  return [...counts].map(([key, count]) => `  ${key}  ${count}\n`).join('');
}

/** What the plan holds, for the owner: no author's name, address or text, only pages, articles and counts. */
function formatPlan(plan: ImportPlan): string {
  const skipped = [...plan.skipped].map(([reason, count]) => `${reason} ${count}`).join(', ');
  const unmatched = [...plan.unmatched.values()].reduce((sum, count) => sum + count, 0);
  return [
    `articles matched: ${plan.matched.size}\n${listed(plan.matched)}`,
    `pages unmatched (${unmatched} comments; map them with --map): ${plan.unmatched.size}\n${listed(plan.unmatched)}`,
    `skipped: ${skipped === '' ? 'none' : skipped}\n`,
    `comments to import: ${plan.records.length}\n`,
  ].join('');
}

/** Runs the import; resolves with its report. */
export async function importForeign(store: TransferStore & StoreLifecycle, run: ForeignImport): Promise<string> {
  const comments = await READERS[run.source](run.file);
  const map = run.mapFile === undefined ? new Map<string, string>() : parseImportMap(await readFile(run.mapFile, 'utf8'));
  const salt = await store.keptSalt(newSalt);
  const plan = planImport(run.source, comments, { slugs: run.slugs, map, salt });
  if (run.dryRun) return `dry run: nothing written\n${formatPlan(plan).trimEnd()}`;
  const { added, skipped } = await store.importRecords(plan.records);
  return `${formatPlan(plan)}imported: ${added} added, ${skipped} already there`;
}
