import { readFile, writeFile } from 'node:fs/promises';
import { secretName } from '../shapes.ts';
import { namesIn, PRIVATE_FILE } from './files.ts';
import { SECRET_FILE, secretFile, type StoreLayout } from './layout.ts';

/** The secret kept under `name`, or null when there is none yet. Throws when its file is empty. */
export async function readSecret(layout: StoreLayout, name: string): Promise<string | null> {
  const file = secretFile(layout, secretName.parse(name));
  try {
    const kept = (await readFile(file, 'utf8')).trim();
    if (kept.length > 0) return kept;
    throw new Error(`${file} holds no secret; delete it to make a new one`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Keeps `value` under `name` unless a secret is kept there already; resolves with the one kept. */
export async function keepSecret(layout: StoreLayout, name: string, value: string): Promise<string> {
  // 'wx': of two processes keeping one at once, the second reads the first one's.
  try {
    await writeFile(secretFile(layout, secretName.parse(name)), `${value}\n`, { flag: 'wx', mode: PRIVATE_FILE });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readSecret(layout, name)) ?? value;
  }
}

/** The names of the secrets kept, sorted. */
export async function secretNames(layout: StoreLayout): Promise<string[]> {
  return (await namesIn(layout.root)).flatMap((file) => SECRET_FILE.exec(file)?.[1] ?? []).sort();
}
