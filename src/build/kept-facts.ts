// The catalog's facts of each article file (its reading time, translation status and digest: catalog.ts,
// `indexSources`), kept beside the render kit by every complete build: a content-only build, made with the same code,
// takes them for the files that did not change instead of reading and hashing every body again.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FactsMemo, SourceFacts } from '../server/articles/catalog.ts';

const RECORD = 'facts.json';

type FactsLine = [key: string, readingTime: number, outdated: boolean, digest: string];

/** An empty memo, for a build whose code may differ from the last one's. */
export function freshFacts(): FactsMemo {
  return { known: new Map(), made: new Map() };
}

/**
 * A memo knowing the facts the build whose kit is in `kitDir` kept; an empty
 * one where it kept none, or none that can be read (every fact is then
 * worked out again, as a full build does).
 */
export async function readKeptFacts(kitDir: string): Promise<FactsMemo> {
  let lines: FactsLine[];
  try {
    lines = JSON.parse(await readFile(join(kitDir, RECORD), 'utf8')) as FactsLine[];
    if (!Array.isArray(lines)) return freshFacts();
  } catch {
    return freshFacts();
  }
  const known = new Map<string, SourceFacts>(lines.map(([key, readingTime, outdated, digest]) => [key, { readingTime, outdated, digest }]));
  return { known, made: new Map() };
}

/** Keeps in `kitDir` the facts this build made or took (those of the files it was made from, no other), whole or not at all. */
export async function writeKeptFacts(kitDir: string, memo: FactsMemo): Promise<void> {
  const lines: FactsLine[] = [...memo.made].map(([key, { readingTime, outdated, digest }]) => [key, readingTime, outdated, digest]);
  const file = join(kitDir, RECORD);
  await writeFile(`${file}.tmp`, JSON.stringify(lines));
  await rename(`${file}.tmp`, file);
}
