import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fillIn } from '../../src/site/client/island.ts';
import { describeRefusal, postJson, relativeTime, type WriteOutcome } from '../../src/site/client/write-api.ts';

/** The templates a form gets from refusal-strings.ts, in words of the test's own. */
const TEMPLATES = {
  '400': 'Check: {details}',
  '403': 'Only on the site.',
  '413': 'Too long.',
  '415': 'Reload.',
  '429': 'Again {when}.',
  '5xx': 'Our fault ({id}).',
  offline: 'No network.',
  too_fast: 'Wait a little.',
};

function refused(status: number, fields: Partial<Omit<Extract<WriteOutcome, { ok: false }>, 'ok' | 'status'>> = {}) {
  return { ok: false, status, error: '', code: null, retryAfterSeconds: null, requestId: null, ...fields } as const;
}

describe('describeRefusal: the message a form shows for a refused write', () => {
  test('by status, each to its own template', () => {
    for (const [status, expected] of [
      [403, 'Only on the site.'],
      [413, 'Too long.'],
      [415, 'Reload.'],
    ] as const) {
      assert.deepEqual(describeRefusal(refused(status), TEMPLATES, 'en'), { message: expected, field: null }, String(status));
    }
  });

  test('a 400 says the answer’s own words and names the field they begin with', () => {
    const refusal = describeRefusal(refused(400, { error: 'requestTitle: at least 3 characters' }), TEMPLATES, 'en');
    assert.deepEqual(refusal, { message: 'Check: requestTitle: at least 3 characters', field: 'requestTitle' });
    assert.equal(describeRefusal(refused(400, { error: 'Invalid JSON' }), TEMPLATES, 'en').field, null);
    assert.equal(describeRefusal(refused(403, { error: 'body: nope' }), TEMPLATES, 'en').field, null, 'only a 400 names a field');
  });

  test('a code the form knows wins over the status; an unknown code falls back to the status', () => {
    assert.equal(describeRefusal(refused(400, { code: 'too_fast' }), TEMPLATES, 'en').message, 'Wait a little.');
    assert.equal(describeRefusal(refused(403, { code: 'not_a_known_code' }), TEMPLATES, 'en').message, 'Only on the site.');
  });

  test('a 429 says the wait of Retry-After in the page’s language, an hour when there is none', () => {
    assert.equal(describeRefusal(refused(429, { retryAfterSeconds: 7200 }), TEMPLATES, 'en').message, 'Again in 2 hours.');
    assert.equal(describeRefusal(refused(429, { retryAfterSeconds: 7200 }), TEMPLATES, 'fr').message, 'Again dans 2 heures.');
    assert.equal(describeRefusal(refused(429), TEMPLATES, 'en').message, 'Again in 60 minutes.');
  });

  test('every server failure is one 5xx with its request id; no answer at all is offline', () => {
    for (const status of [500, 502, 503]) {
      assert.equal(describeRefusal(refused(status, { requestId: 'r-1' }), TEMPLATES, 'en').message, 'Our fault (r-1).');
    }
    assert.equal(describeRefusal(refused(0), TEMPLATES, 'en').message, 'No network.');
  });

  test('a status without a template of its own is said as a server failure', () => {
    assert.equal(describeRefusal(refused(404, { requestId: 'r-2' }), TEMPLATES, 'en').message, 'Our fault (r-2).');
  });
});

describe('relativeTime', () => {
  test('seconds, minutes, hours, days, rounded up, in the language asked', () => {
    assert.equal(relativeTime(30, 'en'), 'in 30 seconds');
    assert.equal(relativeTime(600, 'en'), 'in 10 minutes');
    assert.equal(relativeTime(3 * 3600 + 1, 'en'), 'in 4 hours');
    assert.equal(relativeTime(86_400 * 3, 'en'), 'in 3 days');
    assert.equal(relativeTime(86_400 * 2, 'de'), 'übermorgen');
  });

  test('negative seconds lie in the past', () => {
    assert.equal(relativeTime(-120, 'en'), '2 minutes ago');
    assert.equal(relativeTime(-3 * 86_400, 'en'), '3 days ago');
  });
});

describe('fillIn', () => {
  test('fills each placeholder it has a value for, and leaves the others as written', () => {
    assert.equal(fillIn('{a} and {b}, {a}', { a: 'x' }), 'x and {b}, x');
  });
});

describe('postJson: the answer to a write, reduced to what a form shows', () => {
  let server: Server;
  let base = '';
  let sent: { method: string | undefined; type: string | undefined; body: string } | null = null;
  before(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        sent = { method: request.method, type: request.headers['content-type'], body };
        if (request.url === '/ok') {
          response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"c1","status":"published"}');
        } else if (request.url === '/quota') {
          response
            .writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '120' })
            .end('{"error":"Quota reached","code":"quota","requestId":"req-9"}');
        } else {
          response.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>Bad gateway</h1>');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
  });

  test('a write that went through: its answer, the body sent as JSON', async () => {
    assert.deepEqual(await postJson(`${base}/ok`, { body: 'hello' }), { ok: true, body: { id: 'c1', status: 'published' } });
    assert.deepEqual(sent, { method: 'POST', type: 'application/json', body: '{"body":"hello"}' });
  });

  test('a refusal: its status, words, code, wait and request id', async () => {
    assert.deepEqual(await postJson(`${base}/quota`, {}), {
      ok: false,
      status: 429,
      error: 'Quota reached',
      code: 'quota',
      retryAfterSeconds: 120,
      requestId: 'req-9',
    });
  });

  test('an answer that is not JSON keeps its status and nothing else', async () => {
    assert.deepEqual(await postJson(`${base}/other`, {}), {
      ok: false,
      status: 502,
      error: '',
      code: null,
      retryAfterSeconds: null,
      requestId: null,
    });
  });

  test('no answer at all is status 0', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    assert.deepEqual(await postJson(`http://127.0.0.1:${port}/`, {}), refused(0));
  });
});
