import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** A bounded load on one URL with autocannon: fixed duration and connections, loopback only. */
export async function load(url: string, { seconds, connections }: { seconds: number; connections: number }): Promise<LoadResult> {
  const result = await autocannon({ url, duration: seconds, connections, pipelining: 1 });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
