import { readFile, rm, writeFile } from 'node:fs/promises';
import { makePrivateDirectory, PRIVATE_FILE } from './files.ts';
import type { StoreLayout } from './layout.ts';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Marks the store as open by this process, so that a second process (the
 * owner's tool while the site runs) is refused instead of writing the same
 * journal. A lock left by a process that died (a crash) is taken over.
 */
export async function takeLock(layout: StoreLayout): Promise<void> {
  await makePrivateDirectory(layout.root);
  try {
    await writeFile(layout.lock, `${process.pid}\n`, { flag: 'wx', mode: PRIVATE_FILE });
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = Number((await readFile(layout.lock, 'utf8').catch(() => '')).trim());
  if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
    throw new Error(`The store in ${layout.root} is open in process ${holder}; stop that process (the site?) first.`);
  }
  await writeFile(layout.lock, `${process.pid}\n`);
}

export async function releaseLock(layout: StoreLayout): Promise<void> {
  await rm(layout.lock, { force: true });
}
