import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

/**
 * What a signed activity names is read as every request of the federation
 * is (src/server/federation/outbound.ts): a key whose server sends a body
 * without end, or never answers, costs the site a capped read and a time
 * limit, then the activity is refused with 401, and the site answers others
 * meanwhile. A personal inbox reads the key with a GET signed as its actor;
 * the shared inbox reads it unsigned.
 */

/** Far past outbound.ts's time limit and body cap, far short of "never". */
const GUARD_MS = 30_000;

interface Asked {
  path: string;
  headers: IncomingHttpHeaders;
}

/** A server whose `/endless` sends JSON without end, and whose `/silent` never answers; what each was asked, and the bytes sent. */
function hostileServer(): { server: Server; asked: Asked[]; sent: () => number } {
  const asked: Asked[] = [];
  let sent = 0;
  const chunk = Buffer.alloc(64 * 1024, ' ');
  const server = createServer((req, res) => {
    asked.push({ path: req.url ?? '', headers: req.headers });
    if (req.url !== '/endless') return;
    res.writeHead(200, { 'Content-Type': 'application/activity+json' });
    res.write('{"id":"');
    const more = (): void => {
      while (!res.destroyed && res.write(chunk)) sent += chunk.length;
      if (!res.destroyed) res.once('drain', more);
    };
    more();
  });
  return { server, asked, sent: () => sent };
}

/** A Follow POSTed to `inbox`, its draft-cavage signature naming `keyId` (a signature that cannot verify: the key is never read whole). */
async function signedFollow(site: RunningSite, inbox: string, keyId: string): Promise<{ status: number; ms: number }> {
  const actor = keyId.replace(/#.*/, '');
  const body = JSON.stringify({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${actor}#follow`,
    type: 'Follow',
    actor,
    object: 'http://localhost:4321/federation/actors/en',
  });
  const url = new URL(inbox, site.url);
  const headers = {
    'Content-Type': 'application/activity+json',
    Date: new Date().toUTCString(),
    Digest: `SHA-256=${createHash('sha256').update(body).digest('base64')}`,
  };
  const signature = `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${Buffer.alloc(256).toString('base64')}"`;
  const started = Date.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, Signature: signature },
    body,
    signal: AbortSignal.timeout(GUARD_MS),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: Date.now() - started };
}

let site: RunningSite;
const hostile = hostileServer();
let origin = '';

before(async () => {
  hostile.server.listen(0, '127.0.0.1');
  await once(hostile.server, 'listening');
  origin = `http://127.0.0.1:${String((hostile.server.address() as AddressInfo).port)}`;
  site = await startSite(PREPARED_SITE, { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1' });
});
after(async () => {
  hostile.server.closeAllConnections();
  hostile.server.close();
  await site.stop();
});

test('a key sent without end is read up to the cap: 401, the connection closed, the site answering meanwhile', async () => {
  const answer = signedFollow(site, '/federation/inbox', `${origin}/endless#main-key`);
  const health = await fetch(`${site.url}/healthz`);
  assert.equal(health.status, 200, 'the site answers while the key is read');
  const { status, ms } = await answer;
  assert.equal(status, 401);
  assert.ok(ms < GUARD_MS, `answered after ${String(ms)} ms`);
  const endless = hostile.asked.find(({ path }) => path === '/endless');
  assert.ok(endless, 'the key was asked for');
  assert.equal(endless.headers['signature'], undefined, 'the shared inbox reads keys unsigned');
  const sentThen = hostile.sent();
  assert.ok(sentThen < 16 * 1024 * 1024, `the site stopped reading after ${String(sentThen)} bytes`);
});

test('a key whose server never answers: 401 within the time limit; a personal inbox asks for it signed as its actor', async () => {
  const { status, ms } = await signedFollow(site, '/federation/actors/en/inbox', `${origin}/silent#main-key`);
  assert.equal(status, 401);
  assert.ok(ms < GUARD_MS, `answered after ${String(ms)} ms`);
  const silent = hostile.asked.find(({ path }) => path === '/silent');
  assert.ok(silent, 'the key was asked for');
  assert.match(String(silent.headers['signature']), /keyId="http:\/\/localhost:4321\/federation\/actors\/en#/);
});
