// npm run bench: every part in a process of its own (runApart), the reads
// first (bench/reads.ts), then the city search, the writes, an audience of
// subscribers and followers, and the archive;
// docs/benchmarks.md is written from what they measured.
import { buildIsStale, buildSite } from '../scripts/build-site.ts';
import { benchArchive } from './archive.ts';
import { runApart, writeReport } from './report.ts';

const ROOT = process.cwd();

if (await buildIsStale(ROOT)) await buildSite(ROOT);
if ((await runApart(ROOT, 'bench/reads.ts')) !== 0) process.exitCode = 1;

// Each part in a process of its own: microseconds, latency and memory are measured on a fresh heap, not one the
// parts before it filled.
console.log('');
if ((await runApart(ROOT, 'bench/cities.ts')) !== 0) process.exitCode = 1;
console.log('');
let missedWrites = 0;
for (const part of ['bench/store.ts', 'bench/writes.ts', 'bench/postgres-writes.ts'])
  if ((await runApart(ROOT, part)) !== 0) missedWrites += 1;
if (missedWrites > 0) {
  console.log(`\n${missedWrites} part(s) of the write benches missed a goal.`);
  process.exitCode = 1;
}
console.log('');
if ((await runApart(ROOT, 'bench/audience.ts')) !== 0) process.exitCode = 1;
console.log('');
if ((await benchArchive()) > 0) process.exitCode = 1;
await writeReport(ROOT);
console.log('\nWrote docs/benchmarks.md and its charts.');
