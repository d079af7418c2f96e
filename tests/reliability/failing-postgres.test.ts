import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite } from '../support/site.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { get, newReaderAddress, post } from '../support/writes.ts';

/**
 * PostgreSQL going away under the site and coming back: the site reaches it
 * through a proxy of the test's own, which is cut and restored (the
 * machine's PostgreSQL itself is never stopped).
 */
after(dropDatabases);

test('PostgreSQL gone: writes answer 500 with a request id within 2 s, reads go on, writes recover without a restart', async () => {
  const databaseUrl = await freshDatabase('failing');
  const proxy = await startTcpProxy(Number(new URL(databaseUrl).port || 5432));
  const throughProxy = new URL(databaseUrl);
  throughProxy.host = `127.0.0.1:${proxy.port}`;
  const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', DATABASE_URL: throughProxy.toString() });
  try {
    const address = newReaderAddress();
    assert.equal((await post(site.url, '/api/bug-reports', { description: 'Before' }, address)).status, 200);
    await proxy.cut();
    const started = Date.now();
    const failed = await post(site.url, '/api/bug-reports', { description: 'During' }, address);
    assert.ok(Date.now() - started < 2000, `answered in ${Date.now() - started} ms`);
    assert.equal(failed.status, 500);
    assert.match(String(failed.json()['requestId']), /\S/);
    assert.equal((await get(site.url, '/', address)).status, 200, 'pages need no database');
    assert.equal((await get(site.url, '/api/city-search?q=zur', address)).status, 200);
    await proxy.restore();
    let recovered = 0;
    for (let attempt = 0; attempt < 20 && recovered !== 200; attempt += 1) {
      recovered = (await post(site.url, '/api/bug-reports', { description: 'After' }, address)).status;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal(recovered, 200);
  } finally {
    await site.stop();
    await proxy.cut();
  }
});
