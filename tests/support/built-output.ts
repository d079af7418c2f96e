// What a build wrote, to compare two builds of the same tree byte for byte (tests/build).
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What the build wrote for the server: every served file and the content files by the digest of their bytes, and the
 * manifest's lines without the times it records of the files (a build that reuses writes fewer files, at other times).
 */
export async function builtOutput(dir: string): Promise<Map<string, string>> {
  const output = new Map<string, string>();
  for (const folder of ['dist/client', 'dist/content']) {
    for (const entry of await readdir(join(dir, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      output.set(
        path.slice(dir.length + 1),
        createHash('sha256')
          .update(await readFile(path))
          .digest('hex'),
      );
    }
  }
  for (const line of (await readFile(join(dir, 'dist/static-files.tsv'), 'utf8')).split('\n').filter(Boolean)) {
    const [name = '', fields = '[]'] = line.split('\t');
    const [etag, size, , brSize, , gzSize] = JSON.parse(fields) as unknown[];
    output.set(`manifest ${name}`, JSON.stringify([etag, size, brSize, gzSize]));
  }
  return output;
}

/** The files of either output that the other has not, or has with other bytes. */
export function differingFiles(one: ReadonlyMap<string, string>, other: ReadonlyMap<string, string>): string[] {
  return [...new Set([...one.keys(), ...other.keys()])].filter((file) => one.get(file) !== other.get(file)).sort();
}
