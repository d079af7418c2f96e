// The city search measured in-process: our index against fuse.js over every
// city, on the same realistic queries, bounded in time.
import Fuse from 'fuse.js';
import { setFlagsFromString } from 'node:v8';
import { setImmediate } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { buildCityIndex, formatCityIndex } from '../src/build/city-index.ts';
import { CityIndex, type City } from '../src/server/cities/city-index.ts';
import { indexDigest, LookupsReader, LookupsWriter } from '../src/server/cities/saved-lookups.ts';
import { ALTERNATES_SEPARATOR, type CityIndexFile } from '../src/server/cities/index-file.ts';
import { normalizeName } from '../src/i18n/normalize.ts';
import { searchCities } from '../src/server/cities/search.ts';
import { seededRandom } from '../tests/support/random.ts';

const QUERY_COUNT = 2400;
/** Queries in the other scripts of the site's languages, typed from the cities' alternate names. */
const OTHER_SCRIPT_QUERY_COUNT = 600;
const PASSES = 5;
/** Fuse over every city is slow: a sample keeps the run short. */
const FUSE_SAMPLE = 100;
/**
 * The goals, each against a baseline of the same run but memory (the index's size): the ranked search at least
 * `timesFasterThanFuse` times fuse.js at the median, every query at least `timesFasterThanFuseP99` times it at p99
 * (the fuzzy fallback's share of it), and loading the index at most `timesJsonParse` times `JSON.parse` of its text.
 */
const GOALS = { timesFasterThanFuse: 1000, timesFasterThanFuseP99: 100, timesJsonParse: 12, memoryMiB: 64 };

interface BenchQuery {
  text: string;
  country?: string;
}

/** One typing mistake: a letter dropped, doubled, swapped with the next, or replaced. */
function withTypo(name: string, next: () => number): string {
  const at = 1 + Math.floor(next() * Math.max(1, name.length - 2));
  const letter = 'aeiourstnl'[Math.floor(next() * 10)] ?? 'e';
  switch (Math.floor(next() * 4)) {
    case 0:
      return name.slice(0, at) + name.slice(at + 1);
    case 1:
      return name.slice(0, at) + (name[at] ?? '') + name.slice(at);
    case 2:
      return name.slice(0, at) + (name[at + 1] ?? '') + (name[at] ?? '') + name.slice(at + 2);
    default:
      return name.slice(0, at) + letter + name.slice(at + 1);
  }
}

/**
 * Queries as readers type them: half for the 2,000 largest cities, half for
 * any; prefixes, full names as written, without accents, in capitals, with a
 * typo, a part from the middle, and prefixes within one country.
 */
function realisticQueries(cities: readonly City[]): BenchQuery[] {
  const next = seededRandom(7);
  const queries: BenchQuery[] = [];
  while (queries.length < QUERY_COUNT) {
    const city = cities[Math.floor(next() * (next() < 0.5 ? Math.min(2000, cities.length) : cities.length))];
    if (!city) continue;
    const { name } = city;
    const prefix = name.slice(0, 2 + Math.floor(next() * Math.max(1, name.length - 2)));
    const form = next();
    if (form < 0.3) queries.push({ text: prefix });
    else if (form < 0.45) queries.push({ text: name });
    else if (form < 0.55) queries.push({ text: name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase() });
    else if (form < 0.62) queries.push({ text: name.toUpperCase() });
    else if (form < 0.8) queries.push({ text: withTypo(name.toLowerCase(), next) });
    else if (form < 0.88) queries.push({ text: name.slice(Math.floor(name.length / 3), Math.floor(name.length / 3) + 4) });
    else queries.push({ text: prefix, country: next() < 0.5 ? city.country : city.country.toLowerCase() });
  }
  return queries;
}

/** A name in a script beyond Latin: Cyrillic, Greek, Arabic, Hebrew, Devanagari, kana, Hangul, Chinese characters… */
const BEYOND_LATIN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * Queries as readers of ru, ja, ko, zh, ar, he and hi type them: a city's
 * name in their script, whole or its first characters, weighted to large
 * cities like the others.
 */
function otherScriptQueries(file: CityIndexFile): BenchQuery[] {
  const next = seededRandom(11);
  const queries: BenchQuery[] = [];
  while (queries.length < OTHER_SCRIPT_QUERY_COUNT) {
    const rank = Math.floor(next() * (next() < 0.5 ? Math.min(2000, file.cities.length) : file.cities.length));
    const names = (file.alternates[rank] ?? '')
      .split(ALTERNATES_SEPARATOR)
      .filter((_, at) => at % 2 === 0)
      .filter((name) => BEYOND_LATIN.test(name));
    const name = names[Math.floor(next() * names.length)];
    if (!name) continue;
    const characters = Array.from(name);
    const length = next() < 0.5 ? characters.length : 2 + Math.floor(next() * Math.max(1, characters.length - 2));
    queries.push({ text: characters.slice(0, length).join('') });
  }
  return queries;
}

function percentile(sorted: Float64Array, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? NaN;
}

interface Summary {
  count: number;
  median: number;
  p99: number;
}

function summarize(microseconds: number[]): Summary {
  const sorted = Float64Array.from(microseconds).sort();
  return { count: sorted.length, median: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

function describe(label: string, { count, median, p99 }: Summary, goal = ''): string {
  const time = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(2)} µs`);
  return `${label.padEnd(44)} ${String(count).padStart(6)}  median ${time(median).padStart(10)}  p99 ${time(p99).padStart(10)}${goal}`;
}

function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function mebibytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

interface Loaded {
  index: CityIndex;
  ms: number;
  heap: number;
  arrays: number;
}

/** What the build writes: the index's text and the lookups saved for it (src/server/cities/saved-lookups.ts). */
interface Written {
  text: string;
  lookups: Buffer;
}

function written(index: CityIndexFile): Written {
  const text = formatCityIndex(index);
  const lookups = new LookupsWriter();
  new CityIndex(index).save(lookups);
  return { text, lookups: lookups.bytes(indexDigest(text)) };
}

/**
 * Loads the index from what the build writes, as the server does (the files
 * already read): time, and memory kept (heap, and typed arrays outside it,
 * the saved lookups among them).
 */
function loadIndex({ text, lookups }: Written, gc: () => void): Loaded {
  gc();
  const before = process.memoryUsage();
  const started = performance.now();
  const index = new CityIndex(JSON.parse(text) as CityIndexFile, LookupsReader.of(lookups, indexDigest(text)));
  const ms = performance.now() - started;
  gc();
  const after = process.memoryUsage();
  // The saved lookups' bytes were read before the timing, and the index keeps them: its arrays are views over them.
  return { index, ms, heap: after.heapUsed - before.heapUsed, arrays: after.arrayBuffers - before.arrayBuffers + lookups.length };
}

/** Loads made of each index: one load is a single timing on a busy machine, which moves from run to run. */
const LOADS = 3;

/** The median time `JSON.parse` takes over the index's text: the floor under any load of it. */
function medianParseMs(text: string): number {
  const times = Array.from({ length: LOADS }, () => {
    const started = performance.now();
    JSON.parse(text);
    return performance.now() - started;
  }).sort((a, b) => a - b);
  return times[Math.floor(LOADS / 2)] ?? 0;
}

/** The median time of `first` and LOADS - 1 more loads of the same files; its memory figures stay the first load's. */
function medianLoadMs(first: Loaded, files: Written, gc: () => void): number {
  const times = [first.ms];
  while (times.length < LOADS) times.push(loadIndex(files, gc).ms);
  times.sort((a, b) => a - b);
  return times[Math.floor(LOADS / 2)] ?? first.ms;
}

interface Timings {
  every: number[];
  ranked: number[];
  fallback: number[];
}

/** Microseconds of each search, PASSES times over the queries, split by whether the typo-tolerant fallback ran. */
function timeSearches(index: CityIndex, queries: readonly BenchQuery[]): Timings {
  const timings: Timings = { every: [], ranked: [], fallback: [] };
  for (let pass = 0; pass < PASSES; pass++) {
    for (const { text, country } of queries) {
      const started = performance.now();
      const { results } = searchCities(index, text, country);
      const us = (performance.now() - started) * 1000;
      timings.every.push(us);
      const first = results[0];
      (first === undefined || first.match === 'fuzzy' ? timings.fallback : timings.ranked).push(us);
    }
  }
  return timings;
}

/**
 * fuse.js over every city against our search, on the same sampled queries
 * (without the country filter, which fuse.js does not have). Ours is timed in
 * passes of its own, as a server running searches back to back runs it, not
 * right after each fuse.js query has flushed the processor's caches.
 */
function compareWithFuse(index: CityIndex, queries: readonly BenchQuery[]): { buildMs: number; fuse: Summary; ours: Summary } {
  let started = performance.now();
  const fuse = new Fuse(index.keys, { threshold: 0.4 });
  const buildMs = performance.now() - started;
  const fuseTimes: number[] = [];
  for (const { text } of queries) {
    const key = normalizeName(text);
    started = performance.now();
    fuse.search(key, { limit: 8 });
    fuseTimes.push((performance.now() - started) * 1000);
  }
  const ours = timeSearches(
    index,
    queries.map(({ text }) => ({ text })),
  );
  return { buildMs, fuse: summarize(fuseTimes), ours: summarize(ours.every) };
}

/**
 * Prints the index's cost, our search's latency (every query; the ranked
 * ones, also alone; the typo-tolerant fallback) and fuse.js's over every city.
 */
async function benchCities(): Promise<void> {
  const gc = collectGarbage();
  const started = performance.now();
  const built = buildCityIndex();
  const buildMs = performance.now() - started;
  const files = written(built);
  // The main names alone, to weigh what the alternate names add.
  const mainNames = written({ ...built, alternates: built.alternates.map(() => '') });
  const before = loadIndex(mainNames, gc);
  const loaded = loadIndex(files, gc);
  const { index } = loaded;

  const latin = realisticQueries(index.cities);
  const queries = [...latin, ...otherScriptQueries(built)];
  const isRanked =
    (searched: CityIndex) =>
    ({ text, country }: BenchQuery) => {
      const first = searchCities(searched, text, country).results[0];
      return first !== undefined && first.match !== 'fuzzy';
    };
  for (const { text, country } of queries) {
    searchCities(index, text, country); // warm-up
    searchCities(before.index, text, country);
  }
  const rankedQueries = queries.filter(isRanked(index));
  const rankedBefore = queries.filter(isRanked(before.index));
  // A fresh turn of the event loop, so that the timed passes start after the set-up's own work.
  await setImmediate();
  const mixed = timeSearches(index, queries);
  const alone = summarize(timeSearches(index, rankedQueries).every);
  const fallback = summarize(mixed.fallback);
  const mixedBefore = timeSearches(before.index, queries);
  const aloneBefore = summarize(timeSearches(before.index, rankedBefore).every);
  const fallbackBefore = summarize(mixedBefore.fallback);
  const step = Math.floor(latin.length / FUSE_SAMPLE);
  const versus = compareWithFuse(
    index,
    latin.filter((_, at) => at % step === 0),
  );
  const rankedStep = Math.max(1, Math.floor(rankedQueries.length / FUSE_SAMPLE));
  const versusRanked = compareWithFuse(
    index,
    rankedQueries.filter((_, at) => at % rankedStep === 0),
  );

  let missed = 0;
  const mark = (ok: boolean) => {
    if (!ok) missed += 1;
    return ok ? ' (goal met)' : ' (GOAL MISSED)';
  };
  const memory = (loaded.heap + loaded.arrays) / 2 ** 20;
  const loadMs = medianLoadMs(loaded, files, gc);
  const loadMsBefore = medianLoadMs(before, mainNames, gc);
  const parseMs = medianParseMs(files.text);
  const loadRatio = loadMs / parseMs;
  console.log(
    `City search: ${latin.length} realistic queries and ${queries.length - latin.length} in other scripts, × ${PASSES} passes over ${index.cities.length} cities`,
  );
  console.log(
    `index build (src/build/city-index.ts, ${built.cities.length} cities from the packages): ${buildMs.toFixed(0)} ms, ${mebibytes(Buffer.byteLength(files.text))} of JSON and ${mebibytes(files.lookups.length)} of saved lookups`,
  );
  console.log(
    `index load (parse, the saved lookups read; reading the files excluded; median of ${LOADS}): ${loadMs.toFixed(1)} ms, JSON.parse of its text ${parseMs.toFixed(1)} ms: ${loadRatio.toFixed(1)}×${mark(loadRatio <= GOALS.timesJsonParse)}: at most ${GOALS.timesJsonParse}×; before the alternate names ${loadMsBefore.toFixed(1)} ms`,
  );
  console.log(
    `index memory: heap +${mebibytes(loaded.heap)}, typed arrays +${mebibytes(loaded.arrays)}, ${memory.toFixed(1)} MiB in all${mark(memory < GOALS.memoryMiB)}: under ${GOALS.memoryMiB} MiB; before the alternate names ${((before.heap + before.arrays) / 2 ** 20).toFixed(1)} MiB`,
  );
  console.log(
    `found by a ranked match: ${rankedQueries.length} of ${queries.length} queries (before the alternate names: ${rankedBefore.length})`,
  );
  console.log(describe('every query, in one stream', summarize(mixed.every)));
  console.log(describe('  ranked ones (exact…substring)', summarize(mixed.ranked)));
  console.log(describe('  fuzzy fallback (or nothing found)', fallback));
  console.log(describe('ranked queries alone', alone));
  console.log(describe('before the alternate names: ranked alone', aloneBefore));
  console.log(describe('before the alternate names: fuzzy fallback', fallbackBefore));
  console.log(`fuse.js over all ${index.keys.length} cities (its index: ${versus.buildMs.toFixed(0)} ms), every ${step}th query:`);
  console.log(describe('  fuse.js (threshold 0.4, normalized names)', versus.fuse));
  console.log(describe('  our search, same queries', versus.ours));
  const p99Ratio = versus.fuse.p99 / versus.ours.p99;
  console.log(
    `  fuse.js / ours: ${(versus.fuse.median / versus.ours.median).toFixed(0)}× at the median, ${p99Ratio.toFixed(0)}× at p99${mark(p99Ratio >= GOALS.timesFasterThanFuseP99)}: at least ${GOALS.timesFasterThanFuseP99}× at p99`,
  );
  // The ranked search is the one a typeahead runs on every keystroke; the p99 above is the fuzzy fallback's.
  const rankedRatio = versusRanked.fuse.median / versusRanked.ours.median;
  console.log(`ranked queries only, every ${rankedStep}th:`);
  console.log(describe('  fuse.js (threshold 0.4, normalized names)', versusRanked.fuse));
  console.log(describe('  our search, same queries', versusRanked.ours));
  console.log(
    `  fuse.js / ours: ${rankedRatio.toFixed(0)}× at the median${mark(rankedRatio >= GOALS.timesFasterThanFuse)}: at least ${GOALS.timesFasterThanFuse}×`,
  );
  if (missed > 0) process.exitCode = 1;
}

if (import.meta.main) await benchCities();
