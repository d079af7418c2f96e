// The city search measured in-process: our index against fuse.js over every
// city, on the same realistic queries, bounded in time (about 15 s).
import Fuse from 'fuse.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildCityIndex } from '../scripts/build-city-index.ts';
import { CityIndex, type City } from '../src/server/cities/city-index.ts';
import { CITY_INDEX_PATH, readCityIndexFile } from '../src/server/cities/index-file.ts';
import { normalizeName } from '../src/server/cities/normalize.ts';
import { searchCities } from '../src/server/cities/search.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUERY_COUNT = 2400;
const PASSES = 5;
/** Fuse over every city takes tens of milliseconds a query: a sample keeps the run short. */
const FUSE_SAMPLE = 100;
const GOALS = { rankedMedian: 5, rankedP99: 25, fuzzyP99: 2000 };

interface BenchQuery {
  text: string;
  country?: string;
}

/** A seeded generator (mulberry32): every run measures the same queries. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
  const next = random(7);
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

/** Prints the search's latency (ranked and typo-tolerant), fuse.js's on every city, and the index's cost. */
export async function benchCities(): Promise<void> {
  const gc = collectGarbage();

  let started = performance.now();
  const built = buildCityIndex();
  const buildMs = performance.now() - started;

  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  started = performance.now();
  const index = new CityIndex(readCityIndexFile(join(ROOT, CITY_INDEX_PATH)));
  const loadMs = performance.now() - started;
  gc();
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

  const queries = realisticQueries(index.cities);
  for (const { text, country } of queries) searchCities(index, text, country); // warm-up
  const all: number[] = [];
  const ranked: number[] = [];
  const fallback: number[] = [];
  const perQuery = new Float64Array(queries.length).fill(Infinity);
  for (let pass = 0; pass < PASSES; pass++) {
    queries.forEach(({ text, country }, at) => {
      const start = performance.now();
      const { results } = searchCities(index, text, country);
      const us = (performance.now() - start) * 1000;
      all.push(us);
      perQuery[at] = Math.min(perQuery[at] ?? Infinity, us);
      const first = results[0];
      (first === undefined || first.match === 'fuzzy' ? fallback : ranked).push(us);
    });
  }

  started = performance.now();
  const keys = index.keys;
  const fuse = new Fuse(keys, { threshold: 0.4 });
  const fuseBuildMs = performance.now() - started;
  const sample = queries.filter((_, at) => at % Math.floor(queries.length / FUSE_SAMPLE) === 0).slice(0, FUSE_SAMPLE);
  const fuseTimes: number[] = [];
  const oursOnSample: number[] = [];
  await new Promise((resolve) => setImmediate(resolve));
  for (const { text } of sample) {
    const key = normalizeName(text);
    let start = performance.now();
    fuse.search(key, { limit: 8 });
    fuseTimes.push((performance.now() - start) * 1000);
    start = performance.now();
    searchCities(index, text);
    oursOnSample.push((performance.now() - start) * 1000);
  }

  const rankedSummary = summarize(ranked);
  const fallbackSummary = summarize(fallback);
  const fuseSummary = summarize(fuseTimes);
  const oursSample = summarize(oursOnSample);
  const mark = (ok: boolean) => (ok ? ' (goal met)' : ' (GOAL MISSED)');
  console.log(
    `City search: ${queries.length} queries × ${PASSES} passes over ${index.cities.length} cities (${built.cities.length} built)`,
  );
  console.log(`index build (scripts/build-city-index.ts, from the packages)  ${buildMs.toFixed(0)} ms`);
  console.log(`index load (read, parse, lookups)                            ${loadMs.toFixed(1)} ms, heap +${heapMiB.toFixed(1)} MiB`);
  console.log(describe('our search, every query', summarize(all)));
  console.log(
    describe(
      'our search, ranked (exact…substring)',
      rankedSummary,
      mark(rankedSummary.median < GOALS.rankedMedian && rankedSummary.p99 < GOALS.rankedP99) + ' goal: median < 5 µs, p99 < 25 µs',
    ),
  );
  console.log(
    describe(
      'our search, fuzzy fallback (or nothing found)',
      fallbackSummary,
      mark(fallbackSummary.p99 < GOALS.fuzzyP99) + ' goal: p99 < 2 ms',
    ),
  );
  console.log(describe('our search, best of passes per query', summarize([...perQuery])));
  console.log(`fuse.js over all ${keys.length} cities: index ${fuseBuildMs.toFixed(0)} ms; ${sample.length} sampled queries:`);
  console.log(describe('  fuse.js (threshold 0.4, normalized names)', fuseSummary));
  console.log(describe('  our search, same queries', oursSample));
  console.log(
    `  ratio fuse.js / ours: ${(fuseSummary.median / oursSample.median).toFixed(0)}× at the median, ${(fuseSummary.p99 / oursSample.p99).toFixed(0)}× at p99`,
  );
}

if (import.meta.main) await benchCities();
