import { chmod, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The store holds what readers wrote and the salt of their names: its folders
 * and files are the owner's alone, whatever the umask.
 */
const PRIVATE_DIRECTORY = 0o700;
export const PRIVATE_FILE = 0o600;

/**
 * Creates `directory` (and missing parents) readable by the owner alone, and
 * narrows one that exists (made by an earlier version, or by hand) to the same.
 * Resolves with the first directory it created, as `mkdir` does.
 */
export async function makePrivateDirectory(directory: string): Promise<string | undefined> {
  const created = await mkdir(directory, { recursive: true, mode: PRIVATE_DIRECTORY });
  await chmod(directory, PRIVATE_DIRECTORY);
  return created;
}

/** The names of the entries of `directory`; none when it does not exist (yet). */
export async function namesIn(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Removes what a crash left of snapshots being replaced (`replaceDurably`'s temporary files): never read, never complete. */
export async function removeTemporaryFiles(directory: string): Promise<void> {
  const leftovers = (await namesIn(directory)).filter((name) => name.startsWith('.') && name.endsWith('.tmp'));
  for (const name of leftovers) await rm(join(directory, name), { force: true });
}

/** Makes the directory's entries (a created, renamed or removed file) durable. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * How much of a file being replaced is written before it is flushed. A file
 * system with an ordered journal (ext4's default, data=ordered) makes each
 * synchronized write of the store's journal wait for the data that a flush
 * in flight carries: flushed in one go, a snapshot of tens of megabytes
 * would hold every reader's write for as long as the disk takes to write it.
 */
const FLUSH_EVERY_BYTES = 1024 * 1024;

/**
 * Replaces `file` with the text made of `pieces`, so that a crash leaves
 * either the old or the new content, never a mix: a temporary file beside it
 * is written piece by piece (flushed every FLUSH_EVERY_BYTES) and fsync'd,
 * renamed over it, and the directory fsync'd. Each piece is written before
 * the next is asked for, so the pieces of a large document are made between
 * other work rather than all at once. Resolves once all of it is on disk,
 * with its size in bytes.
 */
export async function replaceDurably(file: string, pieces: Iterable<string>): Promise<number> {
  const temporary = join(dirname(file), `.${basename(file)}.tmp`);
  const handle = await open(temporary, 'w', PRIVATE_FILE);
  let bytes = 0;
  let unflushed = 0;
  try {
    for (const piece of pieces) {
      const data = Buffer.from(piece);
      await handle.writeFile(data);
      bytes += data.length;
      unflushed += data.length;
      if (unflushed >= FLUSH_EVERY_BYTES) {
        await handle.datasync();
        unflushed = 0;
      }
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  await syncDirectory(dirname(file));
  return bytes;
}
