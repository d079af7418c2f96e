import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

/** Slow clients: half trickle their headers, half their body, a byte a second. */
const SLOW_CLIENTS = 200;
/** The server's own limits (src/server/front/server.ts) are 10 s for headers and 20 s for a request; the wait allows for them. */
const CUT_OFF_WITHIN_MS = 40_000;

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE);
});
after(async () => {
  await site.stop();
});

/** A client that sends `atOnce`, then `slowly` a byte a second. */
function trickle(port: number, atOnce: string, slowly: string): { closed: Promise<void>; stop: () => void } {
  const socket: Socket = connect(port, '127.0.0.1', () => {
    if (atOnce) socket.write(atOnce);
  });
  const text = slowly;
  let at = 0;
  const timer = setInterval(() => {
    if (at < text.length && !socket.destroyed) socket.write(text[at++] ?? '');
  }, 1000);
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve();
    });
    socket.on('error', () => undefined);
  });
  return {
    closed,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

test(`${SLOW_CLIENTS} clients trickling a byte a second are cut off, while other readers are served`, async () => {
  const port = Number(new URL(site.url).port);
  const headers = `GET /api/articles HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'x'.repeat(100)}\r\n\r\n`;
  const bodyHeaders =
    'POST /api/comments HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:4321\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
  // Half trickle their headers; the other half send their headers at once and trickle the body.
  const slow = Array.from({ length: SLOW_CLIENTS }, (_, index) =>
    index % 2 === 0 ? trickle(port, '', headers) : trickle(port, bodyHeaders, '{'.repeat(1000)),
  );
  try {
    const started = Date.now();
    // Meanwhile, readers are served: every one of them.
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => request(`${site.url}/api/articles`)));
      assert.deepEqual(
        answers.map(({ status }) => status),
        Array.from({ length: 10 }, () => 200),
      );
    }
    const closedInTime = await Promise.race([
      Promise.all(slow.map(({ closed }) => closed)).then(() => true),
      new Promise<boolean>((resolve) =>
        setTimeout(() => {
          resolve(false);
        }, CUT_OFF_WITHIN_MS),
      ),
    ]);
    console.log(`slow clients: ${SLOW_CLIENTS} cut off after ${((Date.now() - started) / 1000).toFixed(1)} s; 50 readers served meanwhile`);
    assert.ok(closedInTime, `every slow client is cut off within ${CUT_OFF_WITHIN_MS / 1000} s`);
    assert.equal((await request(`${site.url}/api/articles`)).status, 200);
  } finally {
    for (const client of slow) client.stop();
  }
});
