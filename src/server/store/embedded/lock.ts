import { chmod, readFile, rm, stat } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { makePrivateDirectory, PRIVATE_FILE } from './files.ts';
import type { StoreLayout } from './layout.ts';

/** SQLite's SQLITE_BUSY: another connection holds the lock. */
const SQLITE_BUSY = 5;

/** The store's open lock, held until `release` or the process's end, however it ends. */
export interface StoreLock {
  release(): void;
}

/**
 * The locks this process holds. Referenced here so that none is closed (and
 * so let go) by garbage collection while its store is open.
 */
const held = new Set<DatabaseSync>();

/**
 * Marks the store as open by this process, so that a second process (the
 * owner's tool while the site runs, a second server) is refused instead of
 * writing the same journal. Rejects with a message naming the holder when
 * another process, or another open store in this one, has it.
 *
 * The lock is SQLite's exclusive lock on `store.lock`, a POSIX record lock
 * the kernel holds for this process and drops when the process ends: a
 * crash, SIGKILL, a zombie nobody reaps or a restarted container leave
 * nothing to take over (docs/architecture.md, "The store").
 *
 * Nothing else in this process may open and close `store.lock`: closing any
 * descriptor of a file drops every POSIX lock the process holds on it.
 */
export async function takeLock(layout: StoreLayout): Promise<StoreLock> {
  await makePrivateDirectory(layout.root);
  // SQLite creates the file when absent; it is never removed, since a second process could then lock a file of
  // the same name while the first still holds the one it unlinked.
  let lock: DatabaseSync;
  try {
    lock = new DatabaseSync(layout.lock, { timeout: 0 });
  } catch (error) {
    throw new Error(`The store's lock ${layout.lock} could not be opened: ${(error as Error).message}`, { cause: error });
  }
  try {
    // Exclusive locking mode keeps the lock until the connection closes; the transaction is never ended. With the
    // journal in memory, no journal file is made beside it.
    lock.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE;');
  } catch (error) {
    lock.close();
    if ((error as { errcode?: number }).errcode !== SQLITE_BUSY)
      throw new Error(`The store's lock ${layout.lock} could not be taken: ${(error as Error).message}`, { cause: error });
    const holder = await lockHolder(layout.lock);
    throw new Error(
      `The store in ${layout.root} is open in ${holder === null ? 'another process' : `process ${holder}`} (the site, or the owner's data tool); stop it first.`,
      { cause: error },
    );
  }
  held.add(lock);
  const release = () => {
    if (held.delete(lock)) lock.close();
  };
  try {
    // A path-based change: no descriptor of the file is opened (and closed) here.
    await chmod(layout.lock, PRIVATE_FILE);
    // Earlier versions kept the holder's process id in `lock`; the kernel's lock replaces it.
    await rm(layout.legacyLock, { force: true });
  } catch (error) {
    release();
    throw error;
  }
  return { release };
}

/**
 * The process that holds a POSIX lock on `file`, as Linux's /proc/locks
 * names it; null where that cannot be told (another system, a holder in
 * another PID namespace, which the kernel shows as 0).
 */
async function lockHolder(file: string): Promise<number | null> {
  try {
    const { dev, ino } = await stat(file, { bigint: true });
    // The kernel's encoding of a device number, and /proc/locks's "major:minor:inode" (major and minor in hex).
    const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
    const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
    const id = `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${ino}`;
    for (const line of (await readFile('/proc/locks', 'utf8')).split('\n')) {
      // "1: POSIX  ADVISORY  WRITE 4242 fe:00:2146513 1073741824 1073742335"; a waiter's line has "->" after the number.
      const [, kind, , , pid, lockedId] = line.trim().split(/\s+/);
      if (kind === 'POSIX' && lockedId === id && Number(pid) > 0) return Number(pid);
    }
  } catch {
    // No /proc/locks here: the message names no process.
  }
  return null;
}
