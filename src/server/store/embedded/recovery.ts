import { dirname } from 'node:path';
import { corruptFile } from './documents.ts';
import { makePrivateDirectory, removeTemporaryFiles, syncDirectory } from './files.ts';
import { generationFile, listGenerations, readGeneration } from './journal.ts';
import type { StoreLayout } from './layout.ts';
import type { SnapshotTarget } from './snapshot-target.ts';
import { StoreState } from './state.ts';

export interface Recovered {
  state: StoreState;
  /** The highest record number in any file: new records continue after it. */
  lastSeq: number;
  /** The journal generations found (and replayed), oldest first. */
  generations: number[];
  /** The states replay changed: their snapshot files lag behind the journal. */
  changed: Set<SnapshotTarget>;
}

/**
 * Rebuilds the store's state from its directory: the snapshot files, then
 * every journal record they do not hold yet, in order. An absent directory is
 * created, empty. A damaged file rejects naming it, and nothing is written.
 */
export async function recover(layout: StoreLayout): Promise<Recovered> {
  const state = await StoreState.load(layout);
  const generations = await listGenerations(layout.journal);
  const changed = new Set<SnapshotTarget>();
  let lastInJournal = 0;
  for (const generation of generations) {
    const file = generationFile(layout.journal, generation);
    for (const { record, line } of await readGeneration(file)) {
      if (record.seq <= lastInJournal) throw corruptFile(file, `line ${line}: record ${record.seq} comes after record ${lastInJournal}`);
      lastInJournal = record.seq;
      let targets: SnapshotTarget[];
      try {
        await state.prepare(record);
        targets = state.apply(record);
      } catch (error) {
        throw corruptFile(file, `line ${line}: ${(error as Error).message}`);
      }
      for (const target of targets) changed.add(target);
    }
  }
  const lastSeq = Math.max(lastInJournal, state.snapshotSeq);
  // Only now: a store that is refused is left exactly as it was found.
  await createDirectories(layout);
  await removeTemporaryFiles(layout.root);
  await removeTemporaryFiles(layout.articles);
  return { state, lastSeq, generations, changed };
}

async function createDirectories(layout: StoreLayout): Promise<void> {
  const created = await makePrivateDirectory(layout.root);
  await makePrivateDirectory(layout.articles);
  await makePrivateDirectory(layout.journal);
  // A new directory survives a crash only once its parent's entry is on disk.
  await syncDirectory(layout.root);
  if (created !== undefined) await syncDirectory(dirname(created));
}
