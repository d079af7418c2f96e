import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { pacedPosts } from '../../bench/paced.ts';

/** A loopback server that answers with `answer(request, msSinceStart)`, and the times requests arrived at. */
async function server(answer: (response: ServerResponse, sinceStart: number) => void) {
  const arrivals: number[] = [];
  const started = performance.now();
  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.once('end', () => {
      const sinceStart = performance.now() - started;
      arrivals.push(sinceStart);
      answer(response, sinceStart);
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/comments`, arrivals, close: () => http.close() };
}

const write = () => ({ headers: { 'Content-Type': 'application/json' }, body: '{}' });

describe('the bench’s paced writes', () => {
  test('send the rate asked for, evenly over the second, not in bursts', async () => {
    const target = await server((response) => response.end('{}'));
    try {
      const result = await pacedPosts(target.url, write, { rate: 200, seconds: 1, connections: 5, warmUpSeconds: 0 });
      assert.equal(target.arrivals.length, 200);
      assert.equal(result.failed, 0);
      // One every 5 ms on average. A burst sends a connection's whole second (40 here) or all 200 at once; a stall of
      // this process on a busy machine lets a few dozen due meanwhile go together, as they should, and no more.
      const sorted = [...target.arrivals].sort((a, b) => a - b);
      const busiest = Math.max(...sorted.map((time, index) => sorted.filter((other, at) => at >= index && other < time + 20).length));
      assert.ok(busiest < 40, `${busiest} requests arrived within 20 ms`);
    } finally {
      target.close();
    }
  });

  /** A server holding its answers until 900 ms after the start (pacing starts 100 ms in), every tenth a 429. */
  async function stalledServer() {
    let answered = 0;
    return server((response, sinceStart) => {
      answered += 1;
      response.statusCode = answered % 10 === 0 ? 429 : 200;
      setTimeout(() => response.end('{}'), Math.max(0, 900 - sinceStart));
    });
  }

  test('count a stalled request’s wait for every request due behind it, and answers other than 200 as failed', async () => {
    // Each connection's requests due during the stall wait.
    const target = await stalledServer();
    try {
      const result = await pacedPosts(target.url, write, { rate: 200, seconds: 1, connections: 5, warmUpSeconds: 0 });
      // About 160 of the 200 were due during the stall; measured from when each went out, all but 5 would look instant.
      assert.ok(result.p50 >= 150, `p50 ${result.p50} ms`);
      assert.ok(result.p99 >= 600, `p99 ${result.p99} ms`);
      assert.equal(result.failed, 20);
    } finally {
      target.close();
    }
  });

  test('send the warm-up on the same timetable first, counting its failures but not its latency nor its rate', async () => {
    // The stall falls in the warm-up second: the counted second starts once its backlog is long answered.
    const target = await stalledServer();
    try {
      const result = await pacedPosts(target.url, write, { rate: 200, seconds: 1, connections: 5, warmUpSeconds: 1 });
      assert.equal(target.arrivals.length, 400);
      assert.equal(result.rate, 200);
      assert.ok(result.p99 < 300, `p99 ${result.p99} ms`);
      assert.equal(result.failed, 40);
    } finally {
      target.close();
    }
  });
});
