import { readFile, writeFile } from 'node:fs/promises';
import { PRIVATE_FILE } from './files.ts';

/** The salt kept in `file`, or null when there is none yet. Throws when the file holds something unusable. */
export async function readSaltFile(file: string): Promise<string | null> {
  try {
    const kept = (await readFile(file, 'utf8')).trim();
    if (kept.length >= 32) return kept;
    throw new Error(`${file} holds no usable salt; delete it to make a new one (every reader then gets a new name)`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Keeps `salt` in `file` unless one is there already; resolves with the salt kept. */
export async function writeSaltFile(file: string, salt: string): Promise<string> {
  // 'wx': when two processes start at once, the second one reads the first one's salt.
  try {
    await writeFile(file, `${salt}\n`, { flag: 'wx', mode: PRIVATE_FILE });
    return salt;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readSaltFile(file)) ?? salt;
  }
}
