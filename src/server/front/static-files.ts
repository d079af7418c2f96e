import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { etagOf } from '../http/etag.ts';
import type { EncodedBodies } from './encoding.ts';
import { mediaTypeOf } from '../http/media-types.ts';
import type { StoredAnswer } from './stored-answer.ts';

/** Precompressed siblings written by the build (`page.html.br`, `page.html.gz`). */
const PRECOMPRESSED = { br: '.br', gzip: '.gz' } as const;

export interface StaticFile {
  answer: StoredAnswer;
  /** A page or a Markdown twin, as opposed to an asset. */
  isDocument: boolean;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch {
    return undefined;
  }
}

/** The URL paths a built file answers: `a/index.html` answers `/a` and `/a/`. */
function urlPathsOf(relativePath: string): string[] {
  const path = `/${relativePath.split(sep).join('/')}`;
  if (path === '/index.html') return ['/'];
  if (path.endsWith('/index.html')) {
    const directory = path.slice(0, -'/index.html'.length);
    return [directory, `${directory}/`];
  }
  return [path];
}

/**
 * Reads the whole built client folder into memory once: every page, twin and
 * asset is then answered without touching the disk or recomputing a header.
 */
export async function loadStaticFiles(clientDir: string): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  const paths = (await listFiles(clientDir)).filter((path) => !path.endsWith('.br') && !path.endsWith('.gz'));
  await Promise.all(
    paths.map(async (path) => {
      const identity = await readFile(path);
      const bodies: EncodedBodies = { identity };
      for (const [encoding, suffix] of Object.entries(PRECOMPRESSED) as [keyof typeof PRECOMPRESSED, string][]) {
        const encoded = await readIfPresent(path + suffix);
        if (encoded) bodies[encoding] = encoded;
      }
      const relativePath = relative(clientDir, path);
      const contentType = mediaTypeOf(path);
      const isDocument = /\.(html|md)$/.test(path);
      const answer: StoredAnswer = {
        status: 200,
        headers: {
          'Content-Type': contentType,
          'Cache-Control': relativePath.startsWith(`_astro${sep}`) ? CACHE_CONTROL.hashedAsset : CACHE_CONTROL.page,
        },
        etag: etagOf(identity),
        bodies,
      };
      for (const urlPath of urlPathsOf(relativePath)) files.set(urlPath, { answer, isDocument });
    }),
  );
  return files;
}
