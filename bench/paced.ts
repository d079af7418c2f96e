import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PacedLoad {
  /** Requests a second across every connection. */
  rate: number;
  seconds: number;
  connections: number;
  /** Seconds of the same timetable sent first and not counted (WARM_UP_SECONDS unless given). */
  warmUpSeconds?: number;
}

export interface PacedResult {
  /** Requests answered a second. */
  rate: number;
  p50: number;
  p99: number;
  /** Answers other than 200, and requests that got no answer. */
  failed: number;
}

/** The answer's status, once its body is read; 0 for a request that failed. */
function post(agent: Agent, url: URL, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve) => {
    const call = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
      (answer) => {
        answer.resume();
        answer.once('end', () => {
          resolve(answer.statusCode ?? 0);
        });
        answer.once('error', () => {
          resolve(0);
        });
      },
    );
    call.once('error', () => {
      resolve(0);
    });
    call.end(body);
  });
}

/**
 * Seconds of the timetable sent before the counted ones, not counted: the
 * load generator's connections are new and its code for them cold, and its
 * first requests go out late (tens of milliseconds on a busy machine).
 * Their answers other than 200 still count as failed.
 */
const WARM_UP_SECONDS = 1;

function quantile(sorted: readonly number[], q: number): number {
  return Math.round(sorted[Math.floor(q * (sorted.length - 1))] ?? 0);
}

/**
 * POSTs at a steady `rate` over `connections` keep-alive connections: each
 * connection sends its next request on a fixed timetable (one every
 * `connections / rate` seconds, the connections staggered across that
 * interval), so the load arrives evenly, as readers' writes do. A request's
 * latency counts from when it was due, not from when it went out: a stall
 * delays every request due behind it, and each of those counts its wait.
 * (autocannon's own pacing sends a connection's quota for the second as fast
 * as it can, then waits for the next second: bursts at full load.) The
 * counted `seconds` follow `warmUpSeconds` of the same timetable.
 */
export async function pacedPosts(
  target: string,
  next: () => { headers: Record<string, string>; body: string },
  { rate, seconds, connections, warmUpSeconds = WARM_UP_SECONDS }: PacedLoad,
): Promise<PacedResult> {
  const url = new URL(target);
  const interval = (connections * 1000) / rate;
  const start = performance.now() + 100;
  const latencies: number[] = [];
  let failed = 0;
  await Promise.all(
    Array.from({ length: connections }, async (_, index) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // Times from the start, so that rounding never adds a request at the end.
        const end = (warmUpSeconds + seconds) * 1000;
        for (let fromStart = (index * interval) / connections; fromStart < end; fromStart += interval) {
          const due = start + fromStart;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
          const { headers, body } = next();
          const status = await post(agent, url, headers, body);
          if (status !== 200) failed += 1;
          if (fromStart >= warmUpSeconds * 1000) latencies.push(performance.now() - due);
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rate: latencies.length / seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), failed };
}
