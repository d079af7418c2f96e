import assert from 'node:assert/strict';
import { createSecretKey } from 'node:crypto';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';
import { captchaState, verifyCaptcha } from '../../src/server/captcha/captcha.ts';
import { apiRequestOf, type ApiRequest } from '../../src/server/api-frame/api-request.ts';
import { MAX_BODY_BYTES, originRefusal, readInput } from '../../src/server/api-frame/write-guards.ts';
import type { Refusal } from '../../src/server/api-frame/refusals.ts';
import { bugReportInput, isSitePath, topicRequestInput } from '../../src/server/writes/schemas.ts';

const SITE = 'https://example.org';

function write(body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): ApiRequest {
  return apiRequestOf(
    new Request(`${SITE}/api/topic-requests`, {
      method: 'POST',
      headers: { Origin: SITE, 'Content-Type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit),
  );
}

/** The guards as the pipeline runs them: the Origin, then the body. */
async function guardWrite<T>(request: ApiRequest, site: string, schema: Parameters<typeof readInput<T>>[1]) {
  const cross = originRefusal(request, site);
  return cross ? { ok: false as const, refusal: cross } : readInput(request, schema);
}

describe('the write guards', () => {
  test('in order: Origin, Content-Type, size, JSON, schema', async () => {
    const status = async (request: ApiRequest) => {
      const result = await guardWrite(request, SITE, topicRequestInput);
      return result.ok ? 200 : result.refusal.status;
    };
    assert.equal(await status(write('not json', { Origin: 'https://evil.example', 'Content-Type': 'text/plain' })), 403);
    assert.equal(await status(write('not json', { 'Content-Type': 'text/plain' })), 415);
    assert.equal(await status(write('x'.repeat(MAX_BODY_BYTES + 1))), 413);
    assert.equal(await status(write('not json')), 400);
    assert.equal(await status(write('{"requestTitle":"ok"}')), 400);
    assert.equal(await status(write('{"requestTitle":"Fine title","extra":1}')), 200);
  });

  test('a streamed body is cut off past the limit, never read whole', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024).fill(32));
      },
    });
    const result = await guardWrite(write(endless), SITE, topicRequestInput);
    assert.equal(result.ok ? 200 : result.refusal.status, 413);
    assert.ok(pulled <= 20, `${pulled} KiB read`);
  });

  test('the schema message names the field; strings are trimmed', async () => {
    const result = await guardWrite(write('{"requestTitle":"  Trains  ","details":5}'), SITE, topicRequestInput);
    assert.ok(!result.ok);
    assert.match((result.refusal satisfies Refusal).message, /^details: /);
    const trimmed = await guardWrite(write('{"requestTitle":"  Trains  "}'), SITE, topicRequestInput);
    assert.ok(trimmed.ok);
    assert.equal(trimmed.value.requestTitle, 'Trains');
  });
});

describe('bug report pagePath', () => {
  test('kept only when it is a path of this site', () => {
    for (const path of ['/', '/articles/x', '/fr/articles/x?y=1#z']) assert.ok(isSitePath(path), path);
    for (const path of [
      '//evil.example',
      '/\\evil.example',
      'https://x',
      'javascript:alert(1)',
      'articles/x',
      '/a b',
      '/a\u0000',
      42,
      null,
    ]) {
      assert.ok(!isSitePath(path), String(path));
    }
    assert.equal(bugReportInput.parse({ description: 'x', pagePath: '//evil.example' }).pagePath, null);
    assert.equal(bugReportInput.parse({ description: 'x', pagePath: '/ok' }).pagePath, '/ok');
  });
});

describe('the captcha', () => {
  test('off, on, or misconfigured by the settings', () => {
    assert.equal(captchaState({ provider: undefined, siteKey: undefined, secret: undefined, verifyUrl: '' }), 'off');
    assert.equal(captchaState({ provider: 'turnstile', siteKey: 'k', secret: 's', verifyUrl: '' }), 'on');
    assert.equal(captchaState({ provider: 'turnstile', siteKey: 'k', secret: undefined, verifyUrl: '' }), 'misconfigured');
    assert.equal(captchaState({ provider: 'turnstile', siteKey: undefined, secret: 's', verifyUrl: '' }), 'misconfigured');
    assert.equal(captchaState({ provider: 'altcha', siteKey: undefined, secret: undefined, verifyUrl: '' }), 'on', 'ALTCHA needs no key');
  });

  test('a provider answering non-JSON is a 502, success false a 400', async () => {
    let reply = 'not json';
    const server = createServer((_req, res) => res.end(reply));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const settings = {
      provider: 'turnstile' as const,
      siteKey: 'k',
      secret: 's',
      verifyUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    };
    const context = {
      remoteAddress: '203.0.113.1',
      altchaKeys: { challenge: createSecretKey(Buffer.alloc(32)), solution: createSecretKey(Buffer.alloc(32)) },
      spendOnce: () => Promise.resolve(true),
    };
    try {
      assert.equal((await verifyCaptcha(settings, 't', context))?.status, 502);
      reply = '{"success":false}';
      assert.equal((await verifyCaptcha(settings, 't', context))?.status, 400);
      reply = '{"success":true}';
      assert.equal(await verifyCaptcha(settings, 't', context), null);
    } finally {
      server.close();
    }
  });
});
