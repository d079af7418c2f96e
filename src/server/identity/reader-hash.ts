import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const SALT_FILE = 'ip-hash-salt';

/** The salted hash that identifies a reader: HMAC-SHA-256 of the address, base64url. */
export function readerHash(address: string, salt: string): string {
  return createHmac('sha256', salt).update(address).digest('base64url');
}

/**
 * The owner's salt, or one generated once and kept in `dataDir`, so that
 * hashes (and the names derived from them) survive restarts.
 */
export async function loadSalt(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const path = join(dataDir, SALT_FILE);
  try {
    const kept = (await readFile(path, 'utf8')).trim();
    if (kept.length >= 32) return kept;
    throw new Error(`${path} holds no usable salt; delete it to make a new one (every reader then gets a new name)`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const salt = randomBytes(32).toString('base64url');
  // 'wx': when two processes start at once, the second one reads the first one's salt.
  try {
    await writeFile(path, `${salt}\n`, { flag: 'wx', mode: 0o600 });
    return salt;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(path, 'utf8')).trim();
  }
}
