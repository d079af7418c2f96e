import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request, type Answer } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE);
});
after(async () => {
  await site.stop();
});

/** Each header once (a second copy would be joined into the first, and fail its comparison). */
function assertSecurityHeaders(answer: Answer): void {
  const policy = String(answer.headers['content-security-policy']);
  const scripts = /script-src ([^;]*)/.exec(policy)?.[1] ?? '';
  assert.equal(
    scripts,
    "'self' 'wasm-unsafe-eval'",
    'only the site’s own script files and WebAssembly, no inline script, no captcha while it is off',
  );
  assert.match(policy, /frame-ancestors 'none'/);
  assert.match(policy, /default-src 'self'/);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  assert.equal(answer.headers['x-frame-options'], 'DENY');
  assert.equal(answer.headers['referrer-policy'], 'strict-origin-when-cross-origin');
  assert.match(String(answer.headers['permissions-policy']), /camera=\(\)/);
}

describe('security headers', () => {
  for (const path of [
    '/',
    '/ar/articles/the-price-of-a-beer',
    '/threads/the-price-of-a-beer',
    '/fr/answers',
    '/answers.md',
    '/favicon.svg',
    '/api/articles',
    '/api/nope',
    '/no-such-page',
  ]) {
    test(`${path} carries them`, async () => {
      assertSecurityHeaders(await request(`${site.url}${path}`));
    });
  }

  test('so do answers made on the way: a private read, a 405, a 304 and a write', async () => {
    assertSecurityHeaders(await request(`${site.url}/api/votes?slug=the-price-of-a-beer`));
    assertSecurityHeaders(await request(`${site.url}/`, { method: 'POST', body: '' }));
    const etag = String((await request(`${site.url}/answers`)).headers.etag);
    const notModified = await request(`${site.url}/answers`, { headers: { 'If-None-Match': etag } });
    assert.equal(notModified.status, 304);
    assertSecurityHeaders(notModified);
    assertSecurityHeaders(
      await request(`${site.url}/api/votes`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    );
  });

  test('no page holds an inline script', async () => {
    for (const path of ['/', '/cities', '/articles/writing-in-plain-text', '/answers', '/developers']) {
      const { text } = await request(`${site.url}${path}`);
      const inline = /<script(?![^>]*\bsrc=)[^>]*>/.exec(text);
      assert.equal(inline, null, `${path}: ${inline?.[0] ?? ''}`);
    }
  });
});
