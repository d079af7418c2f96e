import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const KINDS = {
  'bug-reports': 'bugReport',
  'city-submissions': 'citySubmission',
  'topic-requests': 'topicRequest',
} as const;

/**
 * Every item of one kind that a server's embedded store holds in `dataDir`,
 * read from its files as they are: the snapshot file and the journal's
 * records after it (each write is journaled before it is answered). What a
 * test checks is then what was stored, not only what was answered.
 */
export async function storedItems(dataDir: string, kind: keyof typeof KINDS): Promise<Record<string, unknown>[]> {
  const snapshot = await readFile(join(dataDir, `${kind}.json`), 'utf8').catch(() => '{"items":[]}');
  const items = new Map((JSON.parse(snapshot) as { items: Record<string, unknown>[] }).items.map((item) => [item['id'], item]));
  const journal = join(dataDir, 'journal');
  for (const file of (await readdir(journal).catch(() => [])).sort()) {
    for (const line of (await readFile(join(journal, file), 'utf8')).split('\n')) {
      if (line.trim() === '') continue;
      const record = JSON.parse(line) as { op: string; item?: Record<string, unknown> };
      if (record.op === KINDS[kind] && record.item) items.set(record.item['id'], record.item);
    }
  }
  return [...items.values()];
}
