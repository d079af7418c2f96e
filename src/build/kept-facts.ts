// The catalog's facts of each article file (its reading time, translation status and digest: catalog.ts,
// `indexSources`), kept beside the render kit by every complete build: a content-only build, made with the same code,
// takes them for the files that did not change instead of reading and hashing every body again.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FactsMemo, SourceFacts } from '../server/articles/catalog.ts';

const RECORD = 'facts.json';

type FactsLine = [key: string, readingTime: number, outdated: boolean, digest: string];

/** A memo knowing the facts the build whose kit is in `kitDir` kept (none where it kept none). */
export async function readKeptFacts(kitDir: string): Promise<FactsMemo> {
  const text = await readFile(join(kitDir, RECORD), 'utf8').catch(() => '[]');
  const lines = JSON.parse(text) as FactsLine[];
  const known = new Map<string, SourceFacts>(lines.map(([key, readingTime, outdated, digest]) => [key, { readingTime, outdated, digest }]));
  return { known, made: new Map() };
}

/** An empty memo, for a build whose code may differ from the last one's. */
export function freshFacts(): FactsMemo {
  return { known: new Map(), made: new Map() };
}

/** Keeps in `kitDir` the facts this build made or took: those of the files it was made from, no other. */
export async function writeKeptFacts(kitDir: string, memo: FactsMemo): Promise<void> {
  const lines: FactsLine[] = [...memo.made].map(([key, { readingTime, outdated, digest }]) => [key, readingTime, outdated, digest]);
  await writeFile(join(kitDir, RECORD), JSON.stringify(lines));
}
