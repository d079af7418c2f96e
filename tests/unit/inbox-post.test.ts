import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { postActivity, type SigningKey } from '../../src/server/federation/inbox-post.ts';

/** An inbox on loopback answering `status` with `body`, and what it was sent. */
async function inbox(status: number, body: Buffer): Promise<{ url: string; received: IncomingHttpHeaders[]; close: () => void }> {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${String(port)}/inbox`, received, close: () => server.close() };
}

async function signingKey(): Promise<SigningKey> {
  const { privateKey } = await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
  return { privateKey, keyId: new URL('https://blog.example/actors/en#main-key') };
}

const ACTIVITY = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Create', id: 'https://blog.example/a/1' });

test('an inbox that takes the activity with a body past 1 MiB has it delivered, signed; 410 says it is gone', async () => {
  const key = await signingKey();
  const options = { allowPrivate: true, signal: AbortSignal.timeout(10_000) };
  const talkative = await inbox(202, Buffer.alloc(3 * 1024 * 1024, 'x'));
  try {
    assert.equal(await postActivity(talkative.url, ACTIVITY, key, options), 'delivered');
    const [headers] = talkative.received;
    assert.match(String(headers?.['signature']), /keyId="https:\/\/blog\.example\/actors\/en#main-key"/);
    assert.equal(headers?.['content-type'], 'application/activity+json');
  } finally {
    talkative.close();
  }
  const gone = await inbox(410, Buffer.from('{"error":"gone"}'));
  try {
    assert.equal(await postActivity(gone.url, ACTIVITY, key, options), 'gone');
  } finally {
    gone.close();
  }
});

test('an inbox on a private address is never asked unless allowed', async () => {
  const key = await signingKey();
  const local = await inbox(202, Buffer.from('{}'));
  try {
    assert.equal(await postActivity(local.url, ACTIVITY, key, { allowPrivate: false, signal: AbortSignal.timeout(10_000) }), 'private');
    assert.equal(local.received.length, 0);
  } finally {
    local.close();
  }
});
