// An article page carries its thread's first page, readable without JavaScript, and its Markdown twin links the thread's.
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { readerNameIn } from '../../src/i18n/reader-names.ts';
import { request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress, post, SITE_ORIGIN } from '../support/writes.ts';

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1' });
});
after(async () => {
  await site.stop();
});

const ARTICLE = 'writing-in-plain-text';

async function comment(body: string, parentId?: string): Promise<{ id: string; author: string }> {
  const answer = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body, ...(parentId && { parentId }) }, newReaderAddress());
  assert.equal(answer.status, 200, answer.text);
  return answer.json<{ id: string; author: string }>();
}

test('a plain fetch of an article page shows a comment posted a moment before, escaped, its reply and its author in the page’s language', async () => {
  const stamp = `Seen without JavaScript ${Date.now()}`;
  const posted = await comment(`<script>alert(1)</script> & <b>${stamp}</b>`);
  const reply = await comment(`A reply to ${stamp}`, posted.id);
  for (const [path, lang] of [
    [`/articles/${ARTICLE}`, 'en'],
    [`/fr/articles/${ARTICLE}`, 'fr'],
    [`/ja/articles/${ARTICLE}/`, 'ja'],
  ] as const) {
    const page = await fetch(`${site.url}${path}`);
    assert.equal(page.status, 200, path);
    assert.equal(page.headers.get('cache-control'), 'no-cache', 'a browser asks again, so a new comment shows at once');
    const html = await page.text();
    assert.ok(
      html.includes(`&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;${stamp}&lt;/b&gt;`),
      `${path} shows the comment escaped`,
    );
    assert.ok(!html.includes(`<b>${stamp}`), `${path} never carries the reader's markup`);
    assert.ok(html.includes(`A reply to ${stamp}`), `${path} shows the reply`);
    const comments = html.slice(html.indexOf(`id="comment-${posted.id}"`));
    assert.ok(comments.includes(readerNameIn(posted.author, lang)), `${path} names the reader in its language`);
    assert.ok(comments.indexOf(`id="comment-${reply.id}"`) > 0, 'the reply is under its comment');
    assert.ok(!html.includes('<!--longhand:thread-->'), 'the slot is filled');
  }
});

test('a Markdown comment renders on the page without JavaScript and in the feed as escaped HTML; the API and the twin keep its Markdown', async () => {
  const stamp = `Markdown ${Date.now()}`;
  const body = `**${stamp}** and ~~gone~~\nsee [the site](https://example.org/a_(b)) or https://example.org/bare\n\n> quoted \`code\`\n\n- one\n- two\n\n# Heading\n\n![image](https://example.org/x.png) [bad](javascript:alert(1)) <img src=x onerror=alert(1)>`;
  const answer = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body }, newReaderAddress());
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json<{ body: string }>().body, body, 'the API answers the Markdown as typed');

  const html = await (await fetch(`${site.url}/articles/${ARTICLE}`)).text();
  const rel = 'rel="nofollow ugc noopener"';
  const shown = html.slice(html.indexOf(`<strong>${stamp}</strong>`));
  const comment = shown.slice(0, shown.indexOf('</div>'));
  for (const part of [
    `<strong>${stamp}</strong> and <s>gone</s><br>`,
    `see <a href="https://example.org/a_(b)" ${rel}>the site</a> or <a href="https://example.org/bare" ${rel}>https://example.org/bare</a>`,
    '<blockquote>\n<p>quoted <code>code</code></p>\n</blockquote>',
    '<ul>\n<li>one</li>\n<li>two</li>\n</ul>',
    '<p>Heading</p>',
    `!<a href="https://example.org/x.png" ${rel}>image</a> [bad](javascript:alert(1)) &lt;img src=x onerror=alert(1)&gt;`,
  ])
    assert.ok(comment.includes(part), `${part} in ${comment}`);
  assert.ok(!/<(img|h\d)\b/.test(comment), 'no image, no heading');

  const feed = (await request(`${site.url}/threads/${ARTICLE}.atom`)).text;
  assert.ok(
    feed.includes(`&#60;strong&#62;${stamp}&#60;/strong&#62; and &#60;s&#62;gone&#60;/s&#62;`),
    'the feed carries the HTML, escaped',
  );
  assert.ok(feed.includes('&#38;lt;img src=x onerror=alert(1)&#38;gt;') && !feed.includes('<img'), 'the reader’s HTML as text');

  const twin = (await request(`${site.url}/threads/${ARTICLE}.md`)).text;
  for (const part of [
    `**${stamp}** and ~~gone~~`,
    '[the site](https://example.org/a_%28b%29)',
    '> quoted `code`',
    '- one',
    'Heading',
    '\\![image](https://example.org/x.png) \\[bad\\](javascript:alert(1)) \\<img src=x onerror=alert(1)>',
  ])
    assert.ok(twin.includes(part), `the twin keeps the Markdown the page shows: ${part} in ${twin}`);
  assert.ok(!twin.includes('# Heading') && !twin.includes('<strong>'), 'no heading, no HTML');
});

test('the page’s ETag changes with its thread, and revalidates under the new one; compressed bodies carry the thread too', async () => {
  const url = `${site.url}/de/articles/${ARTICLE}`;
  const before = await request(url);
  const etag = before.headers['etag'];
  assert.ok(etag);
  assert.equal((await request(url, { headers: { 'If-None-Match': etag } })).status, 304);
  const stamp = `A new tag ${Date.now()}`;
  const posted = await comment(stamp);
  const after = await request(url, { headers: { 'If-None-Match': etag } });
  assert.equal(after.status, 200, 'the old tag no longer matches');
  assert.notEqual(after.headers['etag'], etag);
  assert.ok(after.text.includes(stamp));
  const newTag = after.headers['etag'] ?? '';
  assert.equal((await request(url, { headers: { 'If-None-Match': newTag } })).status, 304, 'the new tag revalidates');
  const vote = await post(site.url, '/api/votes', { articleSlug: ARTICLE, commentId: posted.id, value: 1 }, newReaderAddress());
  assert.equal(vote.status, 200, vote.text);
  const voted = await request(url, { headers: { 'If-None-Match': newTag, 'Accept-Encoding': 'br' } });
  assert.equal(voted.status, 200, 'a vote changes the thread, so the page');
  assert.equal(voted.headers['content-encoding'], 'br');
  const shown = brotliDecompressSync(voted.body).toString('utf8');
  assert.match(shown.slice(shown.indexOf(`id="comment-${posted.id}"`)), /class="score"[^>]*>1</);
});

test('the Markdown twin links the thread’s twin, which carries the comments in the Markdown the page shows', async () => {
  const stamp = `For agents ${Date.now()}`;
  const posted = await comment(`*not emphasis* [not a link](x) <i>${stamp}</i>`);
  const twin = await request(`${site.url}/fr/articles/${ARTICLE}`, { headers: { Accept: 'text/markdown' } });
  assert.equal(twin.status, 200);
  assert.match(twin.headers['content-type'] ?? '', /^text\/markdown/);
  const link = `${SITE_ORIGIN}/fr/threads/${ARTICLE}.md`;
  assert.ok(twin.text.includes(`## Commentaires\n\n<${link}>`), twin.text.slice(-200));
  const thread = await request(`${site.url}${new URL(link).pathname}`);
  assert.equal(thread.status, 200);
  assert.match(thread.headers['content-type'] ?? '', /^text\/markdown/);
  assert.ok(thread.text.includes(`*not emphasis* \\[not a link\\](x) \\<i>${stamp}\\</i>`), thread.text);
  assert.ok(thread.text.includes(`**${readerNameIn(posted.author, 'fr')}**`));
  const etag = thread.headers['etag'] ?? '';
  assert.equal((await request(`${site.url}/fr/threads/${ARTICLE}.md`, { headers: { 'If-None-Match': etag } })).status, 304);
  assert.equal((await request(`${site.url}/fr/threads/${ARTICLE}.md?page=99`)).status, 404, 'its pages are the fragment’s');
  await comment(`Later ${stamp}`);
  const later = await request(`${site.url}/fr/threads/${ARTICLE}.md`, { headers: { 'If-None-Match': etag } });
  assert.equal(later.status, 200, 'the thread’s twin is renewed with the thread');
  assert.ok(later.text.includes(`Later ${stamp}`));
});
