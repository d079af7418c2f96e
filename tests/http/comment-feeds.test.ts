// The Atom feeds of an article's comments and of the whole site's: named by the page, kept like the thread, showing only what the page shows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FEED_COMMENTS } from '../../src/server/threads/latest-comments.ts';
import { dataTool } from '../support/data-tool.ts';
import { request, type Answer } from '../support/http.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress, post, SITE_ORIGIN } from '../support/writes.ts';

const ATOM = 'application/atom+xml; charset=utf-8';

after(dropDatabases);

async function comment(site: RunningSite, articleSlug: string, body: string): Promise<string> {
  const answer = await post(site.url, '/api/comments', { articleSlug, body }, newReaderAddress());
  assert.equal(answer.status, 200, answer.text);
  return String(answer.json()['id']);
}

/** The feeds a page names in its head, as paths on the site. */
function feedsNamed(html: string): string[] {
  const links = html.match(/<link rel="alternate" type="application\/atom\+xml"[^>]*>/g) ?? [];
  return links.map((link) => new URL(/href="([^"]+)"/.exec(link)?.[1] ?? '', SITE_ORIGIN).pathname);
}

function entries(feed: Answer): string[] {
  return feed.text.match(/<entry>[\s\S]*?<\/entry>/g) ?? [];
}

describe('comment feeds', () => {
  let site: RunningSite;
  before(async () => {
    site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1' });
  });
  after(() => site.stop());

  test('an article page names its own feed and the site’s; each answers the newest comments as Atom, rendered and escaped', async () => {
    const article = 'one-site-fifteen-languages';
    const page = await request(`${site.url}/fr/articles/${article}`);
    assert.deepEqual(feedsNamed(page.text), [`/fr/threads/${article}.atom`, '/fr/comments.atom']);
    assert.deepEqual(feedsNamed((await request(`${site.url}/fr/cities`)).text), ['/fr/comments.atom'], 'every page names the site’s');
    const stamp = Date.now();
    for (let n = 0; n < FEED_COMMENTS; n += 1) await comment(site, article, `Comment ${n} of ${stamp}`);
    await comment(site, article, `<script>alert(1)</script> & ]]> **${stamp}**`);
    const feed = await request(`${site.url}/fr/threads/${article}.atom`);
    assert.equal(feed.status, 200);
    assert.equal(feed.headers['content-type'], ATOM);
    const shown = entries(feed);
    assert.equal(shown.length, FEED_COMMENTS, 'the newest 50 only');
    // The page's HTML of the Markdown (its own tags, the reader's as text), escaped once more as the feed's text.
    const rendered = `&#60;p&#62;&#38;lt;script&#38;gt;alert(1)&#38;lt;/script&#38;gt; &#38;amp; ]]&#38;gt; &#60;strong&#62;${stamp}&#60;/strong&#62;&#60;/p&#62;`;
    assert.ok(shown[0]?.includes(`<content type="html">${rendered}\n</content>`), shown[0]);
    assert.ok(!feed.text.includes('<script>'));
    const paragraph = (text: string) => `&#60;p&#62;${text}&#60;/p&#62;`;
    assert.ok(!feed.text.includes(paragraph(`Comment 0 of ${stamp}`)), 'the oldest left out');
    assert.ok(shown[1]?.includes(paragraph(`Comment ${FEED_COMMENTS - 1} of ${stamp}`)), 'newest first');
    for (const element of ['<id>', '<title>', '<updated>', '<author><name>', '<content type="html">'])
      assert.ok(
        shown.every((entry) => entry.includes(element)),
        element,
      );
    assert.match(
      feed.text,
      /<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom" xml:lang="fr">\s*<id>[^<]+<\/id>\s*<title>[^<]+<\/title>\s*<updated>/,
    );
  });

  test('renewed with the thread: a new ETag for a new comment, 304 under it; the site’s feed follows every article', async () => {
    const url = `${site.url}/threads/the-price-of-a-beer.atom`;
    const siteFeed = `${site.url}/ja/comments.atom`;
    const [before, siteBefore] = await Promise.all([request(url), request(siteFeed)]);
    assert.equal((await request(url, { headers: { 'If-None-Match': before.headers['etag'] ?? '' } })).status, 304);
    const stamp = `Followed ${Date.now()}`;
    await comment(site, 'the-price-of-a-beer', stamp);
    const afterComment = await request(url, { headers: { 'If-None-Match': before.headers['etag'] ?? '' } });
    assert.equal(afterComment.status, 200);
    assert.ok(entries(afterComment)[0]?.includes(stamp));
    assert.equal((await request(url, { headers: { 'If-None-Match': afterComment.headers['etag'] ?? '' } })).status, 304);
    const siteAfter = await request(siteFeed, { headers: { 'If-None-Match': siteBefore.headers['etag'] ?? '' } });
    assert.equal(siteAfter.status, 200);
    assert.ok(entries(siteAfter)[0]?.includes(stamp));
    assert.ok(entries(siteAfter)[0]?.includes(`${SITE_ORIGIN}/ja/articles/the-price-of-a-beer#comment-`), 'read on the article page');
    const elsewhere = `Elsewhere ${Date.now()}`;
    await comment(site, 'a-small-web-server', elsewhere);
    assert.ok(entries(await request(siteFeed))[0]?.includes(elsewhere));
    assert.ok(!(await request(url)).text.includes(elsewhere), 'an article’s feed has its own comments only');
  });

  test('no feed for an article that is not published, nor for a language the site does not have', async () => {
    for (const path of ['/threads/next-century.atom', '/threads/draft-notes.atom', '/threads/no-such-article.atom', '/xx/comments.atom'])
      assert.equal((await request(`${site.url}${path}`)).status, 404, path);
  });
});

test('on PostgreSQL, a comment the owner deletes leaves both feeds at once, as its text leaves the page', async () => {
  const databaseUrl = await freshDatabase('feeds');
  const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', DATABASE_URL: databaseUrl });
  try {
    const stamp = `Rude words ${Date.now()}`;
    const id = await comment(site, 'writing-in-plain-text', stamp);
    const feeds = [`${site.url}/threads/writing-in-plain-text.atom`, `${site.url}/comments.atom`];
    for (const feed of feeds) assert.ok((await request(feed)).text.includes(stamp), feed);
    const deleted = await dataTool({ DATABASE_URL: databaseUrl }, 'delete-comment', id);
    assert.equal(deleted.code, 0, deleted.output);
    for (const feed of feeds) assert.ok(!(await request(feed)).text.includes(stamp), feed);
    assert.ok(!(await request(`${site.url}/articles/writing-in-plain-text`)).text.includes(stamp));
  } finally {
    await site.stop();
  }
});
