import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { request } from '../support/http.ts';
import { PREPARED_SITE, startSite } from '../support/site.ts';

// The fixture "next-century" is dated 2099-01-01. The same build is served
// with the server's clock before and on that day: no rebuild in between.
const PATHS = ['/articles/next-century', '/articles/next-century.md', '/ar/articles/next-century', '/ar/articles/next-century.md'];

describe('a future-dated article appears on its date without a rebuild', () => {
  test('the day before (UTC): 404 from the API, its pages and twins, absent from lists', async () => {
    const site = await startSite(PREPARED_SITE, { TEST_CLOCK: '2098-12-31T23:59:50Z' });
    try {
      assert.equal((await request(`${site.url}/api/articles?slug=next-century`)).status, 404);
      const list = (await request(`${site.url}/api/articles`)).json<{ articles: { slug: string }[] }>();
      assert.ok(!list.articles.some((item) => item.slug === 'next-century'));
      for (const path of PATHS) assert.equal((await request(`${site.url}${path}`)).status, 404, path);
      assert.doesNotMatch((await request(`${site.url}/`)).text, /next-century/);
    } finally {
      await site.stop();
    }
  });

  test('on the day: listed first, readable in the API, its pages and twins served', async () => {
    const site = await startSite(PREPARED_SITE, { TEST_CLOCK: '2099-01-01T00:00:10Z' });
    try {
      const list = (await request(`${site.url}/api/articles?lang=ar`)).json<{ articles: { slug: string; title: string }[] }>();
      assert.deepEqual(list.articles[0], { ...list.articles[0], slug: 'next-century', title: 'القرن القادم' });
      assert.equal((await request(`${site.url}/api/articles?slug=next-century`)).status, 200);
      for (const path of PATHS) assert.equal((await request(`${site.url}${path}`)).status, 200, path);
      assert.match((await request(`${site.url}/ar/`)).text, /\/ar\/articles\/next-century/);
      assert.match((await request(`${site.url}/fr/index.md`)).text, /\/articles\/next-century\)/);
    } finally {
      await site.stop();
    }
  });
});
