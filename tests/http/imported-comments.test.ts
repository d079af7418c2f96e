// Comments imported from another comment system, as readers and agents meet them: on the page without JavaScript,
// signed with the names their authors gave and marked as imported, in the thread's twin and feed, and in MCP.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { dataTool } from '../support/data-tool.ts';
import { request } from '../support/http.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { until } from '../support/until.ts';

const FIXTURES = fileURLToPath(new URL('../support/imports/', import.meta.url));
const ARTICLE = 'a-small-web-server';
const IMPORT = ['import', '--from', 'artalk', join(FIXTURES, 'artalk.json'), '--map', join(FIXTURES, 'map.txt')];
const WORK = await mkdtemp(join(tmpdir(), 'imported-comments-'));
after(async () => {
  await rm(WORK, { recursive: true, force: true });
  await dropDatabases();
});

/** The `<article>` of the comment signed by `author` on `html`, up to its body's end. */
function commentSignedBy(html: string, author: string): string {
  const start = html.lastIndexOf('<article', html.indexOf(`>${author}</`));
  assert.ok(start >= 0, `a comment signed ${author}`);
  return html.slice(start, html.indexOf('</div>', start));
}

interface ToolComment {
  id: string;
  author: string;
  deleted?: boolean;
  importedFrom?: string;
  authorUrl?: string;
}

async function getComments(site: RunningSite): Promise<ToolComment[]> {
  const client = new Client({ name: 'longhand-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${site.url}/mcp`)));
  try {
    const result = await client.callTool({ name: 'get_comments', arguments: { slug: ARTICLE } });
    return (result.structuredContent as { comments: ToolComment[] }).comments;
  } finally {
    await client.close();
  }
}

async function readerView(site: RunningSite): Promise<void> {
  const page = await request(`${site.url}/articles/${ARTICLE}`);
  assert.equal(page.status, 200);
  const ada = commentSignedBy(page.text, 'Ada');
  assert.match(
    ada,
    /<a class="comment-author" id="comment-[^"]+-author" href="https:\/\/ada\.example\/" rel="nofollow ugc noopener">Ada<\/a>/,
  );
  assert.match(ada, /<span class="comment-imported">imported from Artalk<\/span>/);
  assert.match(ada, /<strong>small servers<\/strong>/, 'its Markdown rendered');
  const bob = commentSignedBy(page.text, 'Bob');
  assert.match(bob, /<span class="comment-author" id="comment-[^"]+-author">Bob<\/span>/, 'no website given, no link');
  assert.match(bob, /Agreed, &lt;b&gt;not&lt;\/b&gt; HTML here\./, 'its HTML as text');

  const french = await request(`${site.url}/fr/articles/${ARTICLE}`);
  assert.match(commentSignedBy(french.text, 'Ada'), /<span class="comment-imported">importé depuis Artalk<\/span>/);

  const twin = (await request(`${site.url}/threads/${ARTICLE}.md`)).text;
  assert.ok(twin.includes('**Ada** (imported from Artalk)'), twin);
  assert.ok(twin.includes('**small servers**'), 'the twin keeps the Markdown');
  const feed = (await request(`${site.url}/threads/${ARTICLE}.atom`)).text;
  assert.match(feed, /<author>\s*<name>Ada<\/name>/);

  const comments = await getComments(site);
  assert.deepEqual(
    comments.filter(({ author }) => author === 'Ada').map(({ importedFrom, authorUrl }) => [importedFrom, authorUrl]),
    [
      ['artalk', 'https://ada.example/'],
      ['artalk', 'https://ada.example/'],
    ],
  );
  assert.equal(comments.find(({ author }) => author === 'Bob')?.authorUrl, undefined);
}

describe('imported comments, as readers and agents meet them', () => {
  test('on the embedded store: imported before the site starts', async () => {
    const env = { DATA_DIR: await mkdtemp(join(WORK, 'store-')) };
    const imported = await dataTool(env, ...IMPORT);
    assert.match(imported.output, /^imported: 7 added, 0 already there$/m);
    const site = await startSite(PREPARED_SITE, env);
    try {
      await readerView(site);
    } finally {
      await site.stop();
    }
  });

  test('on PostgreSQL: imported while the site runs, shown without a restart', async () => {
    const env = { DATABASE_URL: await freshDatabase('imported') };
    const site = await startSite(PREPARED_SITE, env);
    try {
      assert.equal((await request(`${site.url}/articles/${ARTICLE}`)).text.includes('imported from Artalk'), false);
      const imported = await dataTool(env, ...IMPORT);
      assert.match(imported.output, /^imported: 7 added, 0 already there$/m);
      await readerView(site);

      // Deleted by the owner, an imported comment keeps its place and loses its author's name, website and origin.
      const [ada] = (await getComments(site)).filter(({ author }) => author === 'Ada');
      assert.ok(ada);
      assert.equal((await dataTool(env, 'delete-comment', ada.id)).code, 0);
      await until(
        async () => (await getComments(site)).find(({ id }) => id === ada.id)?.author !== 'Ada',
        'the deleted comment shown as deleted',
      );
      const deleted = (await getComments(site)).find(({ id }) => id === ada.id);
      assert.equal(deleted?.importedFrom, undefined);
      assert.equal(deleted?.authorUrl, undefined);
      const page = (await request(`${site.url}/articles/${ARTICLE}`)).text;
      const meta = page.slice(page.lastIndexOf('<article', page.indexOf(`comment-${ada.id}-author`)));
      assert.match(meta.slice(0, meta.indexOf('</p>')), /This comment was deleted\.$/);
    } finally {
      await site.stop();
    }
  });
});
