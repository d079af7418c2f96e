import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

interface Finished {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

function resultOf(result: Finished, requestsPerSecond: number): LoadResult {
  return {
    requestsPerSecond,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** A bounded load on one URL with autocannon: fixed duration and connections, loopback only. */
export async function load(url: string, { seconds, connections }: { seconds: number; connections: number }): Promise<LoadResult> {
  const result = (await autocannon({ url, duration: seconds, connections, pipelining: 1 })) as unknown as Finished;
  return resultOf(result, result.requests.average);
}

/** The middle value; the mean of the two middle ones for an even count. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export interface InTurns<K extends string> {
  /** Each server's slices, round by round. */
  slices: Record<K, LoadResult[]>;
  /** Each server's rate against `against`'s: the median over the rounds of the two rates measured side by side. */
  ratio(server: K, against: K): number;
  /** A server's slices as one result: the median rate, the worse latencies, every error. */
  overall(server: K): LoadResult;
}

/**
 * Servers on the same path measured in turns, in slices of a second (the
 * least autocannon measures well: each run ramps up for a fraction of a
 * second): each is warmed up for a second, then given `rounds` slices, the
 * servers taking turns within each round, the order reversed every other
 * round. This machine's speed swings twofold within seconds: a ratio is
 * taken within each round, between slices a second apart, and the median
 * over the rounds leaves out the rounds a swing fell in.
 */
export async function inTurns<K extends string>(
  urls: Record<K, string>,
  { rounds, connections }: { rounds: number; connections: number },
): Promise<InTurns<K>> {
  const servers = Object.keys(urls) as K[];
  const slice = { seconds: 1, connections };
  for (const server of servers) await load(urls[server], slice);
  const slices = Object.fromEntries(servers.map((server) => [server, [] as LoadResult[]])) as Record<K, LoadResult[]>;
  for (let round = 0; round < rounds; round += 1) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) slices[server].push(await load(urls[server], slice));
  }
  return {
    slices,
    ratio: (server, against) =>
      median(slices[server].map((slice, round) => slice.requestsPerSecond / (slices[against][round]?.requestsPerSecond ?? Number.NaN))),
    overall: (server) => ({
      requestsPerSecond: median(slices[server].map((slice) => slice.requestsPerSecond)),
      p50: Math.max(...slices[server].map((slice) => slice.p50)),
      p99: Math.max(...slices[server].map((slice) => slice.p99)),
      errors: slices[server].reduce((sum, slice) => sum + slice.errors, 0),
      non2xx: slices[server].reduce((sum, slice) => sum + slice.non2xx, 0),
    }),
  };
}
